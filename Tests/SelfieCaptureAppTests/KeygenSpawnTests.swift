import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// What `OpenSSH.keygen` asks of the spawn primitive (DECISIONS 2026-12-02 "ssh-keygen runs
/// through Spawn"): a child in a session of its own, and a child stopped when the run ends.
@Suite struct KeygenSpawnTests {
    /// `/proc/PID/stat`'s pid and session fields (1 and 6) of a child that execs `cat`.
    static func pidAndSession(newSession: Bool) throws -> (pid: Int, session: Int) {
        let r = try ChildProcess.run("/bin/sh", ["-c", "exec cat /proc/self/stat"], timeout: 30, newSession: newSession)
        let text = String(decoding: r.out, as: UTF8.self)
        // The command name (field 2) is in parentheses and may hold spaces: fields after it.
        let afterName = text.split(separator: ")", maxSplits: 1).last.map(String.init) ?? ""
        let rest = afterName.split(separator: " ")
        let pid = Int(text.split(separator: " ").first ?? "") ?? -1
        return (pid, rest.count > 3 ? Int(rest[3]) ?? -1 : -1)   // state, ppid, pgrp, session
    }

    /// With `newSession` the child leads a session of its own (no controlling terminal); without
    /// it, it stays in ours.
    @Test func newSessionLeadsItsOwnSession() throws {
        let own = try Self.pidAndSession(newSession: true)
        #expect(own.pid > 0 && own.session == own.pid)
        let shared = try Self.pidAndSession(newSession: false)
        #expect(shared.session == Int(getsid(0)))
    }

    /// `stopWhen` ends a child that would wait long (a touch never given): killed with SIGTERM,
    /// reported as stopped, not as timed out.
    @Test func stopWhenEndsTheChild() throws {
        let r = try ChildProcess.run("/bin/sh", ["-c", "exec sleep 600"], timeout: 600, newSession: true, stopWhen: { true })
        #expect(r.stopped && !r.timedOut && r.signal == SIGTERM)
    }
}
