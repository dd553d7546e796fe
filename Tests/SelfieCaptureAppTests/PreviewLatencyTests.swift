import Testing
@testable import SelfieCaptureApp

/// Issue #16: camera-to-screen latency figures (nearest-rank percentiles, NIST definition).
@Suite struct PreviewLatencyTests {
    @Test func nearestRankPercentiles() throws {
        var l = PreviewLatency()
        #expect(l.json(from: "pacedFile") == nil && l.statusRange == nil)
        // 1…20 ms: p50 is the 10th smallest, p95 the 19th, max the 20th.
        for k in 1...20 { l.add(captureMicros: 1_000_000 * k, writtenMicros: 1_000_000 * k + 1000 * k) }
        #expect(l.count == 20)
        #expect(l.percentileMs(0.5) == 10)
        #expect(l.percentileMs(0.95) == 19)
        #expect(l.percentileMs(1) == 20)
        #expect(l.statusRange == 10...19)
        let j = try #require(l.json(from: "v4l2Buffer"))
        #expect(j["p50Ms"]?.doubleValue == 10 && j["p95Ms"]?.doubleValue == 19 && j["samples"]?.intValue == 20)
        #expect(j["from"]?.stringValue == "v4l2Buffer")
    }

    /// A frame drawn twice counts once; a capture time after the write (clocks out of step) is ignored.
    @Test func eachFrameCountsOnce() {
        var l = PreviewLatency()
        l.add(captureMicros: 5000, writtenMicros: 17_500)
        l.add(captureMicros: 5000, writtenMicros: 60_000)
        l.add(captureMicros: 90_000, writtenMicros: 80_000)
        #expect(l.count == 1)
        #expect(l.percentileMs(0.95) == 12.5)
    }
}
