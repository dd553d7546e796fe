import Testing
@testable import TerminalUI

/// Work done while the terminal answers the start-up probe (issue #28: the capture parses its
/// string tables there): after the queries are sent, before any reply is read, once; and the
/// probe's 150 ms count the waiting only, so slow work does not lose the terminal's answers.
@Suite struct ProbeWhileWaitingTests {
    @Test func workRunsAfterTheQueriesAndBeforeTheReplies() {
        let t = ScriptedTerminal([(3, xtermVT340)])
        var sentBeforeWork: [UInt8]?
        var runs = 0
        let (r, keys) = TerminalProbe.run(on: t, deadlineMs: 150) {
            runs += 1
            sentBeforeWork = t.sent
            #expect(t.chunks.count == 1, "a reply was read before the work")
        }
        #expect(runs == 1)
        #expect(sentBeforeWork == TerminalProbe.queryBytes)
        #expect(!r.deadlineExpired && r.da1Attributes != nil && r.xtversion == "XTerm(380)" && keys.isEmpty)
    }

    /// Work that takes 400 ms (longer than the deadline) while the answer came 3 ms after the
    /// queries: the answer is still read, not counted as late.
    @Test func theDeadlineCountsFromTheWorksEnd() {
        let t = ScriptedTerminal([(3, xtermVT340)])
        let (r, _) = TerminalProbe.run(on: t, deadlineMs: 150) { t.now += 400 }
        #expect(!r.deadlineExpired && r.da1Attributes != nil)
        // No answer at all: the full 150 ms are waited after the work, not 150 ms from the queries.
        let silent = ScriptedTerminal([])
        let (s, _) = TerminalProbe.run(on: silent, deadlineMs: 150) { silent.now += 400 }
        #expect(s.deadlineExpired && silent.now - silent.sentAt! == 550)
    }
}
