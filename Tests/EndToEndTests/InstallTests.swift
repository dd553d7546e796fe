import Foundation
import Testing
import TestSupport

/// Issue #18 "install and resources": `make install DESTDIR=…` lays out a tree whose binary,
/// run from another folder, finds its texts and demo photo; its man page renders without
/// warnings and its completions parse and complete from the same option specs as `--help`.
/// The debug binary is installed (`BIN=`), so the test needs no release build.
@Suite(.serialized) struct InstallTests {
    static let bin = Harness.binary
    static let root = TestSupport.projectRoot().path
    static let photo = root + "/Resources/demo/astronaut.png"
    static let ready = bin != nil && Harness.tool("make") != nil && FileManager.default.fileExists(atPath: photo)
    static let why: Comment = "needs the built binary, make, and Resources/demo/astronaut.png (make setup)"

    /// The value of `key` in a project `.strings` table (the oracle for "the right texts").
    static func tableText(_ lang: String, _ key: String) throws -> String {
        let text = try String(contentsOfFile: root + "/Localizations/\(lang).lproj/Localizable.strings", encoding: .utf8)
        let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("\"\(key)\" = \"") })
        return String(line.dropFirst("\"\(key)\" = \"".count).dropLast(2))
    }

    /// The long options `--help` lists for capture (lines "  --name …" of the capture options).
    static func helpOptions() throws -> [String] {
        let r = try Harness.run(try #require(bin), ["--help"])
        return r.out.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("  --") else { return nil }
            return String(line.dropFirst(2).split(separator: " ")[0])
        }
    }

    static func install() throws -> (dest: String, prefix: String) {
        let dest = Harness.tempDir("install")
        let r = try Harness.run(try #require(Harness.tool("make")), ["-s", "install", "DESTDIR=" + dest, "PREFIX=/usr/local",
                                                                     "BIN=" + (try #require(bin))], cwd: root, timeout: 120)
        #expect(r.code == 0, "make install: \(r.err)")
        return (dest, dest + "/usr/local")
    }

    @Test(.enabled(if: ready, why))
    func installedBinaryFindsItsResourcesFromAnotherFolder() throws {
        let (dest, prefix) = try Self.install()
        defer { try? FileManager.default.removeItem(atPath: dest) }
        for f in ["bin/selfie-capture", "share/selfie-capture/Localizations/en.lproj/Localizable.strings",
                  "share/selfie-capture/Localizations/fr.lproj/Localizable.strings", "share/selfie-capture/demo/astronaut.png",
                  "share/man/man1/selfie-capture.1", "share/bash-completion/completions/selfie-capture",
                  "share/zsh/site-functions/_selfie-capture"] {
            #expect(FileManager.default.fileExists(atPath: prefix + "/" + f), "\(f) not installed")
        }
        let elsewhere = Harness.tempDir("elsewhere")
        defer { try? FileManager.default.removeItem(atPath: elsewhere) }
        let exe = prefix + "/bin/selfie-capture"
        // Texts in French, from the installed tables (not raw keys).
        let title = try Harness.run(exe, ["strings", "format", "--locale", "fr", "selfie_capture_result_title"], cwd: elsewhere)
        #expect(title.code == 0, "\(title.err)")
        #expect(title.out == (try Self.tableText("fr", "selfie_capture_result_title")) + "\n")
        // A short headless demo capture records (the photo is found), and its last line is French.
        let r = try Harness.run(exe, ["--source", "demo", "--renderer", "null", "--pace", "fast", "--locale", "fr",
                                      "--output", elsewhere + "/out"], cwd: elsewhere, timeout: 120)
        #expect(r.code == 0, "demo capture: \(r.err)")
        #expect(FileManager.default.fileExists(atPath: elsewhere + "/out/manifest.json"))
        let saved = try Self.tableText("fr", "selfie_capture_done_recorded")
        let savedPrefix = String(saved.prefix { $0 != "%" })
        #expect(r.err.contains("selfie-capture: " + savedPrefix), "stderr: \(r.err)")
        // `make uninstall` takes every file away again.
        let u = try Harness.run(try #require(Harness.tool("make")), ["-s", "uninstall", "DESTDIR=" + dest, "PREFIX=/usr/local"],
                                cwd: Self.root)
        #expect(u.code == 0, "\(u.err)")
        let left = FileManager.default.enumerator(atPath: dest)?.allObjects.compactMap { $0 as? String }
            .filter { p in var d: ObjCBool = false; return FileManager.default.fileExists(atPath: dest + "/" + p, isDirectory: &d) && !d.boolValue }
        #expect(left == [], "left after uninstall: \(left ?? [])")
    }

    /// `make install-strip` (GNU's target) installs the binary without its symbol table
    /// (`readelf -S`: no `.symtab` section) and it still runs; plain `install` keeps the table.
    @Test(.enabled(if: ready && Harness.tool("readelf") != nil, "needs the built binary, make, readelf, and Resources/demo/astronaut.png"))
    func installStripDropsTheSymbolTable() throws {
        let make = try #require(Harness.tool("make")), readelf = try #require(Harness.tool("readelf"))
        let dest = Harness.tempDir("install-strip")
        defer { try? FileManager.default.removeItem(atPath: dest) }
        let r = try Harness.run(make, ["-s", "install-strip", "DESTDIR=" + dest, "PREFIX=/usr/local", "BIN=" + (try #require(Self.bin))],
                                cwd: Self.root, timeout: 120)
        #expect(r.code == 0, "make install-strip: \(r.err)")
        let exe = dest + "/usr/local/bin/selfie-capture"
        let sections = try Harness.run(readelf, ["-S", "-W", exe])
        #expect(sections.code == 0 && sections.out.contains(".dynsym") && !sections.out.contains(".symtab"), "\(sections.out)")
        let version = try Harness.run(exe, ["--version"])
        #expect(version.code == 0 && version.out.hasPrefix("selfie-capture "), "\(version.err)")
        let kept = try Harness.run(readelf, ["-S", "-W", try #require(Self.bin)])
        #expect(kept.out.contains(".symtab"), "the built binary (what plain install copies) has its symbols")
    }

    @Test(.enabled(if: ready && Harness.tool("man") != nil, "needs the built binary, make, man, and Resources/demo/astronaut.png"))
    func manPageRendersWithoutWarningsAndListsEveryOption() throws {
        let (dest, prefix) = try Self.install()
        defer { try? FileManager.default.removeItem(atPath: dest) }
        let page = prefix + "/share/man/man1/selfie-capture.1"
        let sh = try #require(Harness.tool("sh"))
        let r = try Harness.run(sh, ["-c", "MANWIDTH=80 man --warnings -l \"$1\" 2>&1 >/dev/null", "sh", page],
                                env: ["LC_ALL": "C.UTF-8", "MANPAGER": "cat", "PAGER": "cat"])
        #expect(r.code == 0)
        #expect(r.out.isEmpty && r.err.isEmpty, "man warnings: \(r.out)\(r.err)")
        let text = try Harness.run(try #require(Harness.tool("man")), ["-l", page],
                                   env: ["LC_ALL": "C.UTF-8", "MANWIDTH": "80", "MANPAGER": "cat", "PAGER": "cat"])
        #expect(text.out.contains("SELFIE-CAPTURE(1)"))
        let options = try Self.helpOptions()
        #expect(options.count > 30)
        for o in options { #expect(text.out.contains(o), "\(o) is in --help but not in the man page") }
    }

    @Test(.enabled(if: ready && Harness.tool("bash") != nil && Harness.tool("zsh") != nil, "needs the built binary, make, bash, zsh, and Resources/demo/astronaut.png"))
    func completionsParseAndCompleteFromTheOptionSpecs() throws {
        let (dest, prefix) = try Self.install()
        defer { try? FileManager.default.removeItem(atPath: dest) }
        let bashFile = prefix + "/share/bash-completion/completions/selfie-capture"
        let zshFile = prefix + "/share/zsh/site-functions/_selfie-capture"
        let bash = try #require(Harness.tool("bash")), zsh = try #require(Harness.tool("zsh"))
        #expect(try Harness.run(bash, ["-n", bashFile]).code == 0)
        #expect(try Harness.run(zsh, ["-n", zshFile]).code == 0)
        func complete(_ words: [String]) throws -> [String] {
            let script = "source \"$1\"; shift; COMP_WORDS=(\"$@\"); COMP_CWORD=$(($# - 1)); _selfie_capture; printf '%s\\n' \"${COMPREPLY[@]}\""
            let r = try Harness.run(bash, ["-c", script, "bash", bashFile] + words)
            #expect(r.code == 0, "\(r.err)")
            return r.out.split(separator: "\n").map(String.init).sorted()
        }
        // The oracle: the options `--help` lists.
        let pre = try Self.helpOptions().filter { $0.hasPrefix("--pre") }.sorted()
        #expect(pre.contains("--preset") && pre.contains("--preview"))
        #expect(try complete(["selfie-capture", "--pre"]) == pre)
        #expect(try complete(["selfie-capture", "capture", "--pre"]) == pre)
        #expect(try complete(["selfie-capture", "--preset", ""]) == ["selfieFast", "selfieSubstantial"])
        #expect(try complete(["selfie-capture", "str"]) == ["strings"])
        #expect(try complete(["selfie-capture", "strings", "l"]) == ["lint"])
        #expect(try complete(["selfie-capture", "strings", "lint", "--fo"]) == ["--format"])
    }

    /// The zsh function for real: `compinit` in a tmux zsh loads it from the installed
    /// site-functions, and Tab lists the options `--help` lists, and `demo` for `--source`.
    @Test(.enabled(if: ready && Harness.tool("zsh") != nil && TmuxSession.tmux != nil,
                   "needs the built binary, make, zsh, tmux, and Resources/demo/astronaut.png"))
    func zshCompletesInATerminal() async throws {
        let (dest, prefix) = try Self.install()
        defer { try? FileManager.default.removeItem(atPath: dest) }
        let t = try await TmuxSession.started(cols: 160, rows: 40)
        defer { t.kill() }
        try t.type("exec env PATH='\(prefix)/bin':\"$PATH\" zsh -f")
        try t.type("fpath=('\(prefix)/share/zsh/site-functions' $fpath); autoload -U compinit; compinit -u; PS1='z> '; clear")
        #expect(try await t.waitUntil { try t.screen().hasPrefix("z>") }, "screen: \(t.dump())")   // capture-pane drops trailing spaces
        try t.type("selfie-capture --pre", enter: false)
        try t.keys("Tab")
        let pre = try Self.helpOptions().filter { $0.hasPrefix("--pre") }
        #expect(try await t.waitUntil(20) { let s = try t.screen(); return pre.allSatisfy { s.contains($0 + " ") } }, "screen: \(t.dump())")
        try t.keys("C-u")
        try t.type("clear; cd '\(dest)'", enter: true)
        try t.type("selfie-capture --source ", enter: false)
        try t.keys("Tab")
        #expect(try await t.waitUntil(20) { let s = try t.screen(); return s.contains("demo") && s.contains("usr/") }, "screen: \(t.dump())")
        #expect(try !t.screen().contains("unmatched"), "screen: \(t.dump())")
    }

    /// A binary copied out of its tree (no `../share/selfie-capture`, no `Localizations/` above
    /// it) stops with a clear error on every command that needs texts, instead of raw keys or
    /// a lint that checks nothing; the environment overrides still work.
    @Test(.enabled(if: bin != nil, "the selfie-capture binary is not built"))
    func copiedBinaryStopsWithoutItsTables() throws {
        let dir = Harness.tempDir("copied")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let exe = dir + "/selfie-capture"
        try FileManager.default.copyItem(atPath: try #require(Self.bin), toPath: exe)
        let frOnly = dir + "/mine/fr.lproj"
        try FileManager.default.createDirectory(atPath: frOnly, withIntermediateDirectories: true)
        try "\"selfie_capture_result_title\" = \"Fini\";\n".write(toFile: frOnly + "/Localizable.strings", atomically: true, encoding: .utf8)
        for args in [["--source", "demo", "--renderer", "null"], ["strings", "format", "--locale", "fr", "selfie_capture_result_title"],
                     ["strings", "lint", dir + "/mine"]] {
            let r = try Harness.run(exe, args, cwd: dir)
            #expect(r.code == 66, "\(args): \(r.code) \(r.err)")
            #expect(r.err.hasPrefix("selfie-capture: cannot find the built-in string tables"), "\(args): \(r.err)")
            #expect(r.err.contains(dir), "the places searched are named: \(r.err)")
            #expect(!r.out.contains("0 error(s)"))
        }
        // The overrides name the resources explicitly.
        let env = ["SELFIE_CAPTURE_LOCALIZATIONS": Self.root + "/Localizations", "SELFIE_CAPTURE_DEMO_PHOTO": Self.photo]
        let fr = try Harness.run(exe, ["strings", "format", "--locale", "fr", "selfie_capture_result_title"], env: env, cwd: dir)
        #expect(fr.out == (try Self.tableText("fr", "selfie_capture_result_title")) + "\n", "\(fr.err)")
        // A wrong override is the error (no silent fall-back).
        let wrong = try Harness.run(Self.bin!, ["strings", "format", "--locale", "fr", "selfie_capture_result_title"],
                                    env: ["SELFIE_CAPTURE_LOCALIZATIONS": dir + "/nowhere"], cwd: dir)
        #expect(wrong.code == 66 && wrong.err.contains(dir + "/nowhere"), "\(wrong.err)")
        // The demo photo: missing → named error before any screen, listing where it was looked for.
        let noPhoto = try Harness.run(exe, ["--source", "demo", "--renderer", "null"],
                                      env: ["SELFIE_CAPTURE_LOCALIZATIONS": Self.root + "/Localizations",
                                            "SELFIE_CAPTURE_DEMO_PHOTO": dir + "/none.png"], cwd: dir)
        #expect(noPhoto.code == 66 && noPhoto.err.hasPrefix("selfie-capture: cannot find the demo photo") && noPhoto.err.contains(dir + "/none.png"),
                "\(noPhoto.err)")
    }
}
