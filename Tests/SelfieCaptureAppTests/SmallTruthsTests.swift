import Evidence
import Foundation
@testable import SelfieCaptureApp
import Synchronization
import Testing
import TestSupport

/// Issue #19's small truths on one headless capture of the approach clip, driven by a key
/// script with the wall clock pinned: the default folder is named when the recording starts;
/// result.json and manifest.json record a relative `--source` as an absolute path; `q` on the
/// result screen exits 0 and keeps the files; the final stderr line follows `--locale`.
@Suite struct SmallTruthsTests {
    static let approach = TestSupport.shared("media/approach.avi")
    static let model = FileManager.default.fileExists(atPath: "/usr/share/dlib/shape_predictor_68_face_landmarks.dat")

    /// `absolute` written relative to the current folder (through the root, so it always resolves).
    static func relative(_ absolute: String) -> String {
        let depth = FileManager.default.currentDirectoryPath.split(separator: "/").count
        return String(repeating: "../", count: depth) + absolute.drop { $0 == "/" }
    }

    @Test(.enabled(if: approach != nil && model, "../shared/media/approach.avi or the dlib model is absent"))
    func defaultFolderAbsoluteSourceQuitOnResultFrenchLastLine() throws {
        let clip = try #require(Self.approach)
        let parent = FileManager.default.temporaryDirectory.appendingPathComponent("sc-truths-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: parent) }
        let spec = Self.relative(clip)
        #expect(!spec.hasPrefix("/") && FileManager.default.fileExists(atPath: spec))
        let argv = ["--source", spec, "--renderer", "null", "--pace", "fast", "--locale", "fr",
                    "--keys", "enter; enter; wait-for cameraReady; s; wait-for outputSaved; q"]
        let args = try ArgumentParser.parse(argv.enumerated().map { ArgToken($0.element, index: $0.offset + 1) }, spec: Commands.capture)
        let captured = Captured()
        var setup = try CaptureSetup.make(args, environment: ProcessInfo.processInfo.environment, console: captured.console)
        setup.output.parent = parent
        let readings = Mutex(0)
        let base = 1_796_126_400.0   // 2026-12-01T12:00:00Z; each reading 5 s later than the last
        setup.output.wallClock = { Date(timeIntervalSince1970: base + Double(readings.withLock { n -> Int in n += 1; return n } - 1) * 5) }

        // q on the result screen: exit 0, files kept.
        #expect(try CaptureRuntime(setup: setup).run() == .ok, "\(captured.err.withLock { $0 })")
        // Readings: the run's start, the folder's name at the recording's start, the manifest's end.
        #expect(readings.withLock { $0 } == 3)
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.dateFormat = "yyyyMMdd-HHmmss"
        let expectedName = "selfie-capture-" + f.string(from: Date(timeIntervalSince1970: base + 5))
        #expect(try FileManager.default.contentsOfDirectory(atPath: parent) == [expectedName])
        let folder = (parent as NSString).appendingPathComponent(expectedName)
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        #expect(files == ["frames", "manifest.json", "reference.jpg", "result.json", "video.avi"])
        #expect(try EvidenceFolder.verify(folder).discrepancies.isEmpty)

        // The source as an absolute path, in result.json and manifest.json.
        let absolute = URL(fileURLWithPath: clip).standardizedFileURL.path
        let result = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder + "/result.json"))) as? [String: Any])
        #expect((result["source"] as? [String: Any])?["spec"] as? String == absolute)
        #expect((result["metadata"] as? String)?.contains(#""spec":"\#(absolute.replacingOccurrences(of: "/", with: "\\/"))""#) == true
                || (result["metadata"] as? String)?.contains(#""spec":"\#(absolute)""#) == true)
        let manifest = try Manifest.decode(Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/manifest.json"))))
        #expect(manifest.source.spec == absolute)

        // The last stderr line in French, naming the folder.
        let err = captured.err.withLock { $0 }
        let last = err.split(separator: "\n").last.map(String.init) ?? ""
        #expect(last.hasPrefix("selfie-capture: capture enregistrée dans \(folder) ("), "stderr: \(err)")
        #expect(last.contains("images enregistrées"), "stderr: \(err)")
    }

    /// `--preview-fps` caps the capture screens drawn per second of the run's clock: on the
    /// 15 fps approach clip (paced by its timestamps, so both runs see the same frames at the
    /// same times) the default 15 draws every frame and 5 draws a third as many.
    @Test(.enabled(if: approach != nil && model, "../shared/media/approach.avi or the dlib model is absent"))
    func previewFpsCapsTheDraws() throws {
        let clip = try #require(Self.approach)
        func draws(_ extra: [String]) throws -> (draws: Int, frames: Int) {
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sc-pfps-\(UUID().uuidString.prefix(8))").path
            defer { try? FileManager.default.removeItem(atPath: dir) }
            let argv = ["--source", clip, "--renderer", "null", "--pace", "fast", "--output", dir + "/out"] + extra
            let args = try ArgumentParser.parse(argv.enumerated().map { ArgToken($0.element, index: $0.offset + 1) }, spec: Commands.capture)
            let captured = Captured()
            let runtime = CaptureRuntime(setup: try CaptureSetup.make(args, environment: ProcessInfo.processInfo.environment, console: captured.console))
            #expect(try runtime.run() == .ok, "\(captured.err.withLock { $0 })")
            return (runtime.presenter.captureDraws, runtime.source.framesKept)
        }
        let d15 = try draws([]), d5 = try draws(["--preview-fps", "5"])
        #expect(d15.frames == d5.frames && d15.frames > 30)
        // Every frame of a 15 fps source at the default (a draw may be owed to a state change).
        #expect(d15.draws >= d15.frames - 1 && d15.draws <= d15.frames + 1, "\(d15)")
        let ratio = Double(d5.draws) / Double(d15.draws)
        #expect(ratio > 0.30 && ratio < 0.37, "5 fps: \(d5.draws) draws, 15 fps: \(d15.draws)")
    }
}
