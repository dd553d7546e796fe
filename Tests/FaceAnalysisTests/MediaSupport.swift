import CaptureFlow
import FaceAnalysis
import Foundation
import Media
import TestSupport

/// Ground truth of one shared/media scenario (NAME.json; see shared/media/README.md).
struct ScenarioTruth: Decodable {
    struct Face: Decodable { var x, y, w, h, roll, visible: Double }
    struct Frame: Decodable {
        var i: Int
        var t: Double
        var count: Int
        var faces: [Face]
        /// Faces less than half inside the frame (only while entering or leaving).
        var partial_faces: [Face]?
        var label: String
        var accept: [String]
    }
    struct PhotoFace: Decodable { var intrinsic_roll_deg: Double }
    struct Expect: Decodable {
        var records: Bool
        var hints_include: [String]
        var hints_exclude: [String]
    }
    var expect: Expect
    var scenario: String
    var fps: Int
    var width: Int
    var height: Int
    var frames: [Frame]
    var photo_face: PhotoFace
}

enum MediaSupport {
    static let mediaDir = TestSupport.shared("media")

    /// ffmpeg on PATH (test oracle for decoding the AVIs), or nil.
    static let ffmpeg: String? = {
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let p = "\(dir)/ffmpeg"
            if FileManager.default.isExecutableFile(atPath: p) { return p }
        }
        return nil
    }()

    static var available: Bool { mediaDir != nil && ffmpeg != nil }

    static func truth(_ name: String) throws -> ScenarioTruth {
        let dir = try requireDir()
        let data = try Data(contentsOf: URL(fileURLWithPath: "\(dir)/\(name).json"))
        return try JSONDecoder().decode(ScenarioTruth.self, from: data)
    }

    struct Missing: Error, CustomStringConvertible { var description: String }

    static func requireDir() throws -> String {
        guard let d = mediaDir else { throw Missing(description: "../shared/media is absent") }
        return d
    }

    /// All frames of NAME.avi decoded to gray by ffmpeg (`-f rawvideo -pix_fmt gray`).
    static func grayFrames(_ name: String, width: Int = 640, height: Int = 480) throws -> [Image] {
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

    /// The status a scenario label stands for (labels are in the user's mirrored view).
    static func status(forLabel label: String) -> FaceStatus? {
        switch label {
        case "noFace": return .NotFound
        case "multipleFaces": return .TooManyFaces
        case "getCloser": return .TooFarAway
        case "getFurther": return .TooClose
        case "moveLeft": return .TooFarRight      // shown right of the oval → move left
        case "moveRight": return .TooFarLeft
        case "moveDown": return .TooFarUp
        case "moveUp": return .TooFarDown
        case "valid": return .ValidFace
        default: return nil
        }
    }

    /// One analyser shared by the media tests (the landmark model loads once, ~0.5–1 s).
    static let models: (detector: DlibHOGDetector, predictor: DlibShapePredictor)? = {
        guard let d = try? DlibHOGDetector(), let p = try? DlibShapePredictor() else { return nil }
        return (d, p)
    }()
}
