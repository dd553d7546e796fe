import Foundation
import Testing
import TestSupport

/// Issue #28 through the built binary in a real terminal: the libraries the first screens do
/// not need are not in the process while the instructions are on the terminal (libchafa and
/// glib are dlopened when the first picture is drawn; dlib is linked statically without BLAS and
/// LAPACK; FFmpeg is dlopened by `--video-format mp4` only), and libchafa is there once the
/// capture screen's symbol preview is drawn. (The count and the time are in `make bench`,
/// Benchmarks/kiosk.sh.)
@Suite(.serialized) struct StartupLibrariesTests {
    static let bin = Harness.binary
    static let demoPhoto = FileManager.default.fileExists(
        atPath: TestSupport.projectRoot().appendingPathComponent("Resources/demo/astronaut.png").path)
    static let ready = bin != nil && TmuxSession.tmux != nil && demoPhoto

    /// The file names of the shared objects mapped in process `pid` (/proc/PID/maps).
    static func mappedLibraries(_ pid: Int32) -> Set<String> {
        // Read to the end: /proc files report size 0, and a sized read stops early.
        let data = FileHandle(forReadingAtPath: "/proc/\(pid)/maps").map { h in defer { try? h.close() }; return h.readDataToEndOfFile() }
        let maps = String(decoding: data ?? Data(), as: UTF8.self)
        return Set(maps.split(separator: "\n").compactMap { line -> String? in
            guard let path = line.split(separator: " ", omittingEmptySubsequences: true).last, path.hasPrefix("/") else { return nil }
            let name = String(path.split(separator: "/").last ?? "")
            return name.contains(".so") ? name : nil
        })
    }

    static func named(_ libs: Set<String>, _ prefixes: [String]) -> [String] {
        libs.filter { l in prefixes.contains { l.hasPrefix($0 + ".so") || l.hasPrefix($0 + "-") } }.sorted()
    }

    @Test(.enabled(if: ready, "needs tmux, the built binary and Resources/demo (make setup)"))
    func instructionsScreenMapsNoPictureFaceOrVideoLibrary() async throws {
        let bin = try #require(Self.bin)
        let dir = Harness.tempDir("sc-startup-libs")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let t = try await TmuxSession.started(cols: 100, rows: 30)
        defer { t.kill() }
        try t.type("'\(bin)' --source demo --preview-mode symbols --output '\(dir)/out' --events '\(dir)/ev.jsonl'; echo EXIT=$?")
        #expect(try await t.waitFor("Record a short selfie video"), "screen: \(t.dump())")
        let shell = try t.tmux(["display-message", "-p", "-t", t.name, "#{pane_pid}"]).out.trimmingCharacters(in: .whitespacesAndNewlines)
        let children = (try? String(contentsOfFile: "/proc/\(shell)/task/\(shell)/children", encoding: .utf8)) ?? ""
        let pid = try #require(children.split(separator: " ").first.flatMap { Int32($0) }, "the app's pid")
        let atInstructions = Self.mappedLibraries(pid)
        // The whole list was read: the C library and curses (linked, drawing this screen) are in it.
        #expect(atInstructions.contains { $0.hasPrefix("libc.so") } && atInstructions.contains { $0.hasPrefix("libncursesw.so") },
                "maps read: \(atInstructions.sorted())")
        let unwanted = ["libchafa", "libglib", "libpcre2", "libdlib", "libblas", "liblapack", "libgfortran", "libquadmath",
                        "libavformat", "libavcodec", "libavutil", "libswscale", "libcrypto"]
        #expect(Self.named(atInstructions, unwanted).isEmpty,
                "loaded before any picture, face model, video or hash: \(Self.named(atInstructions, unwanted))")
        // The capture screen draws the symbol preview through libchafa: loaded now.
        try t.keys("Enter")
        #expect(try await t.waitFor("Camera access"), "screen: \(t.dump())")
        try t.keys("Enter")
        #expect(await t.waitUntil(90) { eventLogContains(dir + "/ev.jsonl", "cameraReady") }, "screen: \(t.dump())")
        #expect(await t.waitUntil(60) { !Self.named(Self.mappedLibraries(pid), ["libchafa"]).isEmpty },
                "libchafa after the first symbol preview: \(Self.mappedLibraries(pid).sorted())")
        #expect(Self.named(Self.mappedLibraries(pid), ["libdlib", "libblas", "liblapack"]).isEmpty, "dlib is linked statically, without BLAS")
        try t.keys("q")
        #expect(try await t.waitFor("EXIT="), "screen: \(t.dump())")
    }
}
