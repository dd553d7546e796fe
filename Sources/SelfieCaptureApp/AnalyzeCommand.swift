import Camera
import CaptureFlow
import CaptureModel
import FaceAnalysis
import Media

#if canImport(Glibc)
import Glibc
#endif

/// `selfie-capture analyze --source SPEC [--analysis-log FILE] [--constraints v1|v2] [--no-mirror]
/// [--pace realtime|fast]`: face analysis and guidance over a source with no UI, one JSON line per
/// analysed frame (`AnalysisLog.jsonLine`) on stdout or in FILE (created 0600: it holds face
/// geometry). A summary goes to stderr. Frames the analysis fails on are skipped and counted.
public enum AnalyzeCommand {
    public static let handler: CommandHandler = { args, console in
        guard let spec = args.value("--source") else {
            throw AppError.missingArgument(command: "analyze", name: "--source SPEC")
        }
        var config = GuidanceConfig()
        config.mirror = !args.flag("--no-mirror")
        if let c = args.value("--constraints"), let v = ConstraintsVersion(rawValue: c) { config.constraints = v }
        let pace = PaceMode(rawValue: args.value("--pace") ?? "fast") ?? .fast

        let source: FrameSource
        do {
            source = try FrameSources.open(spec: spec, options: SourceOptions(demoPhoto: DemoPhoto.load))
        } catch { throw appError(error, source: spec) }
        defer { source.close() }

        var sink: LineSink
        if let path = args.value("--analysis-log"), path != "-" {
            sink = try LineSink(path: path)
        } else {
            sink = LineSink(console: console)
        }
        defer { sink.close() }

        let detector: DlibHOGDetector
        let predictor: DlibShapePredictor
        do {
            detector = try DlibHOGDetector()
            predictor = try DlibShapePredictor()
        } catch { throw appError(error, source: spec) }
        let analyzer = FaceAnalyzer(detector: detector, landmarks: predictor)

        let summary: AnalyzeSummary
        do {
            summary = try run(source: source, analyzer: analyzer, guidance: Guidance(config: config),
                              pacer: Pacer(mode: pace)) { try sink.write($0 + "\n") }
        } catch let e as AppError { throw e } catch { throw appError(error, source: spec) }
        let st = source.stats
        console.err("analyze: \(st.readFrames) frames read: \(st.deliveredFrames) delivered (\(st.warnedFrames) warned, "
                    + "\(st.huffmanInsertedFrames) given Huffman tables), \(st.skippedSummary); "
                    + "\(summary.analysed) analysed, \(summary.failed) failed; analysis CPU time per frame: median "
                    + "\(ms(summary.percentileMicros(50))) ms, p90 \(ms(summary.percentileMicros(90))) ms; "
                    + "quality vector per frame: median \(ms3(AnalyzeSummary.percentile(summary.qualityMicros, 50))) ms, "
                    + "p90 \(ms3(AnalyzeSummary.percentile(summary.qualityMicros, 90))) ms\n")
        return .ok
    }

    /// Counts of a run.
    public struct AnalyzeSummary: Equatable, Sendable {
        public var analysed = 0
        /// Frames the analysis threw on (skipped, not written).
        public var failed = 0
        /// CPU time of each `FaceAnalyzer.analyze` call in microseconds (the thread's CPU clock,
        /// so other load on the machine does not inflate it).
        public var micros: [Int] = []
        /// CPU time of the quality vector inside each call (`FaceAnalyzer.lastQualityCPUMicros`), µs.
        public var qualityMicros: [Int] = []

        /// The p-th percentile (0...100, nearest rank) of `micros`, 0 when empty.
        public func percentileMicros(_ p: Int) -> Int { Self.percentile(micros, p) }

        /// The p-th percentile (0...100, nearest rank) of `values`, 0 when empty.
        public static func percentile(_ values: [Int], _ p: Int) -> Int {
            guard !values.isEmpty else { return 0 }
            let sorted = values.sorted()
            let rank = max(0, min(sorted.count - 1, (p * sorted.count + 99) / 100 - 1))
            return sorted[rank]
        }
    }

    static func ms(_ micros: Int) -> String {
        let tenths = (micros + 50) / 100
        return "\(tenths / 10).\(tenths % 10)"
    }

    /// µs as ms with three decimals ("0.123").
    static func ms3(_ micros: Int) -> String {
        let s = String(micros % 1000)
        return "\(micros / 1000)." + String(repeating: "0", count: 3 - s.count) + s
    }

    static func threadCPUMicros() -> Int {
        var ts = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
        return Int(ts.tv_sec) * 1_000_000 + Int(ts.tv_nsec) / 1000
    }

    /// Analyses every frame of `source` in order and hands each JSON line (no newline) to `write`.
    /// - Throws: the source's error when it becomes unusable; `write`'s error.
    public static func run(source: FrameSource, analyzer: FaceAnalyzer, guidance: Guidance, pacer: Pacer? = nil,
                           write: (String) throws -> Void) throws -> AnalyzeSummary {
        var guidance = guidance
        var summary = AnalyzeSummary()
        while let frame = try source.nextFrame() {
            pacer?.release(timestampMs: frame.timestampMs)
            let job = AnalysisJob(frame: frame)   // the luma at the analysis scale (issue #16)
            let analysis: FrameAnalysis
            let t0 = threadCPUMicros()
            do {
                analysis = try analyzer.analyze(job)
                summary.micros.append(threadCPUMicros() - t0)
                summary.qualityMicros.append(analyzer.lastQualityCPUMicros)
            } catch {
                summary.failed += 1
                continue
            }
            let result = guidance.judge(analysis)
            try write(AnalysisLog.jsonLine(analysis, result))
            summary.analysed += 1
        }
        return summary
    }


    /// Media, camera and model errors as `AppError` (exit codes per DESIGN.md); media and camera
    /// errors through the shared `AppError.media` mapping.
    static func appError(_ error: Error, source: String) -> AppError {
        if let e = error as? AppError { return e }
        if let e = AppError.media(error) { return e }
        if let e = error as? FaceModelError {
            switch e {
            case .modelLoad(let path, _): return .inputMissing(path: path + " (install libdlib-data)")
            default: return .badData("\(ErrorReport.program): face analysis: \(e)")
            }
        }
        return .badData("\(ErrorReport.program): \(source): \(error)")
    }
}

/// Where the JSON lines go: a file (created 0600, truncated) or the console's stdout.
struct LineSink {
    private var fd: Int32 = -1
    private var path = ""
    private var console: Console?

    init(console: Console) { self.console = console }

    /// - Throws: `AppError.cannotCreateOutput` when the file cannot be created.
    init(path: String) throws {
        self.path = path
        fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        if fd < 0 { throw AppError.cannotCreateOutput(path: path, reason: String(cString: strerror(errno))) }
    }

    /// - Throws: `AppError.cannotCreateOutput` on a write error (disk full…).
    func write(_ text: String) throws {
        if let console { console.out(text); return }
        var bytes = Array(text.utf8)
        var off = 0
        while off < bytes.count {
            let n = bytes.withUnsafeMutableBytes { Glibc.write(fd, $0.baseAddress! + off, $0.count - off) }
            if n < 0 {
                if errno == EINTR { continue }
                throw AppError.cannotCreateOutput(path: path, reason: String(cString: strerror(errno)))
            }
            off += n
        }
    }

    mutating func close() { if fd >= 0 { _ = Glibc.close(fd); fd = -1 } }
}
