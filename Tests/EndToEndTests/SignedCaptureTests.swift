import Foundation
import Testing
import TestSupport

/// `--sign-key` and `verify --allowed-signers` (issue #25) on real headless demo runs, keys made
/// by `ssh-keygen -t ed25519` in a temporary folder. The oracle is OpenSSH itself:
/// `ssh-keygen -Y verify` accepts the signed manifest, and refuses it once a byte changed.
/// A changed manifest, a signer the allowed list does not hold and a missing signature each
/// fail `verify` with their own line; a missing key and a passphrase nobody gave stop the run
/// before the screen, with their exit codes, and leave no output folder.
@Suite(.serialized) struct SignedCaptureTests {
    static let bin = Harness.binary
    static let keygen = Harness.tool("ssh-keygen")
    static let demoPhoto = FileManager.default.fileExists(
        atPath: TestSupport.projectRoot().appendingPathComponent("Resources/demo/astronaut.png").path)
    static let ready = bin != nil && keygen != nil && demoPhoto
    static let namespace = "selfie-capture-manifest@v1"
    /// No ssh-agent: the key file itself signs (or fails to).
    static let noAgent = ["SSH_AUTH_SOCK": "/nonexistent/agent.sock"]

    /// `ssh-keygen -t ed25519 -N PASS -C COMMENT -f DIR/NAME`; returns the public key line.
    static func makeKey(_ dir: String, _ name: String, passphrase: String = "", comment: String) throws -> String {
        let r = try Harness.run(try #require(keygen), ["-q", "-t", "ed25519", "-N", passphrase, "-C", comment, "-f", dir + "/" + name])
        try #require(r.code == 0, "ssh-keygen: \(r.err)")
        return try String(contentsOfFile: dir + "/" + name + ".pub", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func capture(_ out: String, extra: [String], renderer: String = "null") throws -> Harness.Result {
        try Harness.run(try #require(bin), ["--source", "demo", "--renderer", renderer, "--pace", "fast", "--timeout", "120",
                                            "--output", out] + extra, env: noAgent, timeout: 300)
    }

    /// OpenSSH's own check of DIR/manifest.json against its signature.
    static func opensshVerifies(_ out: String, allowed: String, principal: String) throws -> Bool {
        let r = try ChildProcess.run(try #require(keygen), ["-Y", "verify", "-f", allowed, "-I", principal, "-n", namespace,
                                                            "-s", out + "/manifest.json.sig"],
                                     stdin: .data(try Data(contentsOf: URL(fileURLWithPath: out + "/manifest.json"))), timeout: 60)
        return r.code == 0
    }

    static func copyFolder(_ from: String, _ to: String) throws {
        try? FileManager.default.removeItem(atPath: to)
        try FileManager.default.copyItem(atPath: from, toPath: to)
    }

    @Test(.enabled(if: ready, "needs the built binary, ssh-keygen (openssh-client) and Resources/demo"))
    func signedCaptureVerifiesWithOpenSSHAndTamperingIsNamed() throws {
        let dir = Harness.tempDir("sc-signed")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let alice = try Self.makeKey(dir, "alice", comment: "alice@example")
        let bob = try Self.makeKey(dir, "bob", comment: "bob@example")
        try "alice@example \(alice)\n".write(toFile: dir + "/allowed", atomically: true, encoding: .utf8)
        try "bob@example \(bob)\n".write(toFile: dir + "/allowed-bob", atomically: true, encoding: .utf8)
        let out = dir + "/out"
        let r = try Self.capture(out, extra: ["--sign-key", dir + "/alice"], renderer: "plain")
        #expect(r.code == 0, "stderr: \(r.err)")
        #expect(FileManager.default.fileExists(atPath: out + "/manifest.json.sig"))
        // The result screen lists every file the folder holds, the signature too.
        #expect(r.out.contains("Files: video.avi, reference.jpg, frames, result.json, manifest.json, manifest.json.sig"), "\(r.out)")
        // The oracle: OpenSSH accepts it as alice's, in our namespace.
        #expect(try Self.opensshVerifies(out, allowed: dir + "/allowed", principal: "alice@example"))
        // What is signed holds the source's identity and the capture times.
        let manifest = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/manifest.json"))) as? [String: Any])
        #expect(manifest["startedAt"] is String && manifest["endedAt"] is String && manifest["source"] is [String: Any])
        // The signature is not a file of the manifest and not an "extra" file either.
        let listed = (manifest["files"] as? [[String: Any]] ?? []).compactMap { $0["path"] as? String }
        #expect(!listed.contains("manifest.json.sig"))
        let plain = try Harness.run(try #require(Self.bin), ["verify", out])
        #expect(plain.code == 0 && plain.out.contains("signature not checked"), "\(plain.out)\(plain.err)")

        let ok = try Harness.run(try #require(Self.bin), ["verify", out, "--allowed-signers", dir + "/allowed"])
        #expect(ok.code == 0, "\(ok.err)")
        #expect(ok.out.contains("signed by alice@example (ssh-ed25519 SHA256:"), "\(ok.out)")
        // The fingerprint named is ssh-keygen's own.
        let fp = try Harness.run(try #require(Self.keygen), ["-l", "-f", dir + "/alice.pub"]).out.split(separator: " ")[1]
        #expect(ok.out.contains(String(fp)), "\(ok.out) vs \(fp)")

        // A changed byte in the manifest: OpenSSH refuses it, and verify says the manifest changed.
        let changed = dir + "/changed"
        try Self.copyFolder(out, changed)
        var m = try Data(contentsOf: URL(fileURLWithPath: changed + "/manifest.json"))
        let at = try #require(m.firstIndex(of: UInt8(ascii: "Z")))   // in startedAt: a plausible forgery, still valid JSON
        m[at] = UInt8(ascii: "z")
        try m.write(to: URL(fileURLWithPath: changed + "/manifest.json"))
        #expect(try !Self.opensshVerifies(changed, allowed: dir + "/allowed", principal: "alice@example"))
        let c = try Harness.run(try #require(Self.bin), ["verify", changed, "--allowed-signers", dir + "/allowed"])
        #expect(c.code == 65)
        #expect(c.err.contains("manifest.json: changed since it was signed (the signature by alice@example does not match it)"), "\(c.err)")

        // The wrong signer: bob's list does not hold alice's key.
        let w = try Harness.run(try #require(Self.bin), ["verify", out, "--allowed-signers", dir + "/allowed-bob"])
        #expect(w.code == 65)
        #expect(w.err.contains("manifest.json.sig: signed by ssh-ed25519 key \(fp), which \(dir)/allowed-bob does not list (wrong signer)"), "\(w.err)")

        // No signature.
        let unsigned = dir + "/unsigned"
        try Self.copyFolder(out, unsigned)
        try FileManager.default.removeItem(atPath: unsigned + "/manifest.json.sig")
        let u = try Harness.run(try #require(Self.bin), ["verify", unsigned, "--allowed-signers", dir + "/allowed"])
        #expect(u.code == 65)
        #expect(u.err.contains("manifest.json.sig: missing (the capture is not signed)"), "\(u.err)")

        // A changed video under a good signature: the hashes catch it, as without signing.
        let video = dir + "/video"
        try Self.copyFolder(out, video)
        var v = try Data(contentsOf: URL(fileURLWithPath: video + "/video.avi"))
        v[v.count / 2] ^= 0xFF
        try v.write(to: URL(fileURLWithPath: video + "/video.avi"))
        let vr = try Harness.run(try #require(Self.bin), ["verify", video, "--allowed-signers", dir + "/allowed"])
        #expect(vr.code == 65)
        #expect(vr.err.contains("video.avi: changed"), "\(vr.err)")
    }

    @Test(.enabled(if: ready, "needs the built binary, ssh-keygen (openssh-client) and Resources/demo"))
    func missingKeyAndUnheldPassphraseStopBeforeTheScreen() throws {
        let dir = Harness.tempDir("sc-signed-fail")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        _ = try Self.makeKey(dir, "locked", passphrase: "correct horse", comment: "locked@example")

        let missing = try Self.capture(dir + "/out1", extra: ["--sign-key", dir + "/absent"])
        #expect(missing.code == 66)
        #expect(missing.err.contains("no signing key at \(dir)/absent"), "\(missing.err)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/out1"))

        let locked = try Self.capture(dir + "/out2", extra: ["--sign-key", dir + "/locked"])
        #expect(locked.code == 77)
        #expect(locked.err.contains("cannot sign with \(dir)/locked: the key is protected by a passphrase"), "\(locked.err)")
        #expect(locked.err.contains("nothing was signed"))
        #expect(!FileManager.default.fileExists(atPath: dir + "/out2"))
    }

    /// An agent that refuses (a key added with `ssh-add -c` whose confirmation is answered no:
    /// SSH_ASKPASS=/bin/false) stops the run before the screen with 77 and says so.
    @Test(.enabled(if: ready && Harness.tool("ssh-agent") != nil && Harness.tool("ssh-add") != nil,
                   "needs ssh-agent and ssh-add (openssh-client)"))
    func anAgentThatRefusesStopsTheRunWith77() throws {
        let dir = Harness.tempDir("sc-signed-agent")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        _ = try Self.makeKey(dir, "confirm", comment: "confirm@example")
        let sock = dir + "/agent.sock"
        let env = ["SSH_AUTH_SOCK": sock, "SSH_ASKPASS": "/bin/false", "SSH_ASKPASS_REQUIRE": "force", "DISPLAY": ""]
        let started = try Harness.run(try #require(Harness.tool("ssh-agent")), ["-s", "-a", sock], env: env)
        try #require(started.code == 0, "ssh-agent: \(started.err)")
        // "SSH_AGENT_PID=1234; export SSH_AGENT_PID;": the agent we started, stopped by its pid.
        let pid = started.out.split(separator: ";").first { $0.contains("SSH_AGENT_PID=") }
            .flatMap { Int32($0.split(separator: "=").last.map(String.init) ?? "") }
        defer { if let pid { kill(pid, SIGTERM) } }
        let added = try Harness.run(try #require(Harness.tool("ssh-add")), ["-c", dir + "/confirm"], env: env)
        try #require(added.code == 0, "ssh-add: \(added.err)")
        let r = try Harness.run(try #require(Self.bin), ["--source", "demo", "--renderer", "null", "--pace", "fast", "--timeout", "120",
                                                         "--output", dir + "/out", "--sign-key", dir + "/confirm.pub"], env: env, timeout: 300)
        #expect(r.code == 77)
        #expect(r.err.contains("cannot sign with \(dir)/confirm.pub: ssh-agent refused to sign"), "\(r.err)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/out"))
    }
}
