import JSON

/// Camera-to-screen latency of the preview (issue #16): for each frame whose preview was
/// written to the terminal, the time from its capture (`VideoFrame.captureMicros`: the V4L2
/// buffer timestamp, or the due time of a paced file frame) to the end of the draw that wrote it
/// (the backend's write returned). Each frame counts once, when first shown. Pure: the runtime
/// hands in both clock readings (CLOCK_MONOTONIC µs).
///
/// result.json `previewLatency`: `{"p50Ms", "p95Ms", "maxMs", "samples", "from"}` (`from`:
/// `v4l2Buffer` or `pacedFile`), null with `--pace fast` (its clock is virtual) or when no frame
/// carried a capture time. Percentiles are nearest-rank (NIST/Hyndman–Fan definition 1: the
/// ⌈p·n⌉-th smallest sample).
struct PreviewLatency {
    private(set) var samplesMicros: [Int] = []
    /// The capture time of the last frame counted (a frame drawn twice counts once).
    private var lastCountedCapture: Int?

    /// Counts the frame captured at `captureMicros`, written at `writtenMicros`; ignores a
    /// frame already counted and a negative delay (clocks out of step).
    mutating func add(captureMicros: Int, writtenMicros: Int) {
        guard captureMicros != lastCountedCapture, writtenMicros >= captureMicros else { return }
        lastCountedCapture = captureMicros
        samplesMicros.append(writtenMicros - captureMicros)
    }

    var count: Int { samplesMicros.count }

    /// The nearest-rank `p`-quantile (0 < p ≤ 1) in ms, rounded to 0.1 ms; nil without samples.
    func percentileMs(_ p: Double) -> Double? {
        guard !samplesMicros.isEmpty else { return nil }
        let sorted = samplesMicros.sorted()
        let rank = max(1, min(sorted.count, Int((p * Double(sorted.count)).rounded(.up))))
        return (Double(sorted[rank - 1]) / 100).rounded() / 10
    }

    /// p50...p95 in whole ms, for the status line.
    var statusRange: ClosedRange<Int>? {
        guard let a = percentileMs(0.5), let b = percentileMs(0.95) else { return nil }
        return Int(a.rounded())...max(Int(a.rounded()), Int(b.rounded()))
    }

    /// result.json's `previewLatency` (see the type's doc), or nil without samples.
    func json(from: String) -> JSONValue? {
        guard let p50 = percentileMs(0.5), let p95 = percentileMs(0.95), let max = percentileMs(1) else { return nil }
        return ["p50Ms": .double(p50), "p95Ms": .double(p95), "maxMs": .double(max), "samples": .int(count), "from": .string(from)]
    }
}
