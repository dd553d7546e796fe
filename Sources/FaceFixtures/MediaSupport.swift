import CaptureModel
import FaceAnalysis
import Foundation
import Media
import TestSupport

// Fixtures of the media tests (FaceAnalysisTests, and SelfieCaptureAppTests where analysis and
// guidance join): the shared clips' ground truth, their frames decoded by ffmpeg, the dlib models.

/// Ground truth of one shared/media scenario (NAME.json; see shared/media/README.md).
public struct ScenarioTruth: Decodable {
    public struct Face: Decodable { public var x, y, w, h, roll, visible: Double }
    public struct Frame: Decodable {
        public var i: Int
        public var t: Double
        public var count: Int
        public var faces: [Face]
        /// Faces less than half inside the frame (only while entering or leaving).
        public var partial_faces: [Face]?
        public var label: String
        public var accept: [String]
    }
    public struct PhotoFace: Decodable { public var intrinsic_roll_deg: Double }
    public struct Expect: Decodable {
        public var records: Bool
        public var hints_include: [String]
        public var hints_exclude: [String]
    }
    public var expect: Expect
    public var scenario: String
    public var fps: Int
    public var width: Int
    public var height: Int
    public var frames: [Frame]
    public var photo_face: PhotoFace
}

public enum MediaSupport {
    public static let mediaDir = TestSupport.shared("media")

    /// ffmpeg on PATH (test oracle for decoding the AVIs), or nil.
    public static let ffmpeg: String? = {
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let p = "\(dir)/ffmpeg"
            if FileManager.default.isExecutableFile(atPath: p) { return p }
        }
        return nil
    }()

    public static var available: Bool { mediaDir != nil && ffmpeg != nil }

    public static func truth(_ name: String) throws -> ScenarioTruth {
        let dir = try requireDir()
        let data = try Data(contentsOf: URL(fileURLWithPath: "\(dir)/\(name).json"))
        return try JSONDecoder().decode(ScenarioTruth.self, from: data)
    }

    public struct Missing: Error, CustomStringConvertible { public var description: String }

    public static func requireDir() throws -> String {
        guard let d = mediaDir else { throw Missing(description: "../shared/media is absent") }
        return d
    }

    /// All frames of NAME.avi decoded to gray by ffmpeg (`-f rawvideo -pix_fmt gray`).
    public static func grayFrames(_ name: String, width: Int = 640, height: Int = 480) throws -> [Image] {
        let dir = try requireDir()
        guard let ffmpeg else { throw Missing(description: "ffmpeg is absent") }
        let r = try ChildProcess.run(ffmpeg, ["-nostdin", "-v", "error", "-i", "\(dir)/\(name).avi", "-f", "rawvideo",
                                              "-pix_fmt", "gray", "-"], stderr: .null, timeout: 300)
        guard r.exitStatus == 0 else { throw Missing(description: "ffmpeg could not decode \(name).avi (status \(r.exitStatus ?? -1), timed out: \(r.timedOut))") }
        let data = r.out
        let size = width * height
        let bytes = [UInt8](data)
        return stride(from: 0, to: bytes.count - size + 1, by: size).map {
            Image(width: width, height: height, layout: .gray, pixels: Array(bytes[$0..<($0 + size)]))
        }
    }

    /// Every frame of clip `name` analysed in order by one fresh `FaceAnalyzer` (tracking
    /// included) at its ground truth's timestamps, with the decoded frame count. Computed once
    /// per test process (`SharedResult`) and shared by the suites that judge it by their own
    /// rules (FaceAnalysisTests' TrackerMediaTests, SelfieCaptureAppTests' MediaScenarioTests):
    /// the analysis is deterministic, so a second pass over the same frames finds the same.
    /// A second caller suspends until the first one's analysis is done, holding no thread.
    public static func analyses(_ name: String) async throws -> (frameCount: Int, analyses: [FrameAnalysis]) {
        try await SharedResult.once("FaceFixtures.analyses/\(name)") {
            let truth = try truth(name)
            let frames = try grayFrames(name, width: truth.width, height: truth.height)
            guard let models else { throw Missing(description: "the dlib models are absent") }
            let analyzer = FaceAnalyzer(detector: try DlibHOGDetector(), landmarks: models.predictor)
            var out: [FrameAnalysis] = []
            for (i, frame) in frames.enumerated() where i < truth.frames.count {
                out.append(try analyzer.analyze(gray: frame, frameIndex: i, timestampMs: Int((truth.frames[i].t * 1000).rounded())))
            }
            return (frames.count, out)
        }
    }

    /// One analyser shared by the media tests (the landmark model loads once, ~0.5–1 s).
    public static let models: (detector: DlibHOGDetector, predictor: DlibShapePredictor)? = {
        guard let d = try? DlibHOGDetector(), let p = try? DlibShapePredictor() else { return nil }
        return (d, p)
    }()
}
