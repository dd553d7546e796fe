import CaptureModel
import FaceAnalysis
import FaceFixtures
import Foundation
import Media
import Testing
import TestSupport

/// The packed landmark evaluation against dlib's own `shape_predictor` (the oracle), and the
/// model caches (written, read back, rebuilt when stale or damaged, skipped when unwritable).
@Suite(.serialized) struct ModelCacheTests {
    static let model = DlibShapePredictor.defaultModelPath
    static let haveModel = FileManager.default.fileExists(atPath: model)

    static func tempDir() -> String {
        let d = NSTemporaryDirectory() + "sc-cache-\(UUID().uuidString.prefix(8))"
        try? FileManager.default.createDirectory(atPath: d, withIntermediateDirectories: true)
        return d
    }

    /// The package's own demo photo (`Resources/demo/astronaut.png`, which `make` fetches), for
    /// a clone without ../shared.
    static var demoPhoto: String? {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let p = root.appendingPathComponent("Resources/demo/astronaut.png").path
        return FileManager.default.fileExists(atPath: p) ? p : nil
    }

    /// Faces of some shared/media frames (every 10th frame of three scenarios, one rolled 35°),
    /// or of the astronaut photo when shared/media is absent (shared/media/faces, else the
    /// package's demo photo): (gray frame, detector box).
    /// Computed once per test process (four tests use it).
    static func faces() throws -> [(Image, Rect)] {
        try SharedResult.once("ModelCacheTests.faces") { try findFaces() }
    }

    private static func findFaces() throws -> [(Image, Rect)] {
        let detector = try DlibHOGDetector(cacheDirectory: nil)
        var out: [(Image, Rect)] = []
        if MediaSupport.mediaDir != nil {
            for name in ["long", "rolled", "approach"] {
                let frames = try MediaSupport.grayFrames(name)
                for f in stride(from: 0, to: frames.count, by: 10).map({ frames[$0] }) {
                    for d in try detector.detect(gray: f) { out.append((f, d.box)) }
                }
            }
        } else if let photo = TestSupport.shared("media/faces/astronaut.png") ?? demoPhoto {
            let g = PixelConvert.gray(try ImageFile.loadRGB(path: photo))
            for d in try detector.detect(gray: g) { out.append((g, d.box)) }
        }
        return out
    }

    @Test(.enabled(if: haveModel, "the landmark model (libdlib-data) is absent"))
    func packedLandmarksAreDlibs() throws {
        let faces = try Self.faces()
        try #require(faces.count >= 20 || MediaSupport.mediaDir == nil, "too few faces: \(faces.count)")
        let packed = try DlibShapePredictor(cacheDirectory: nil)
        let dlib = try DlibShapePredictor(reference: true)
        #expect(packed.parts == 68 && dlib.parts == 68)
        for (i, (img, box)) in faces.enumerated() {
            let a = try packed.landmarks(gray: img, box: box), b = try dlib.landmarks(gray: img, box: box)
            #expect(a == b, "face \(i): packed and dlib's points differ")
        }
    }

    @Test(.enabled(if: haveModel, "the landmark model (libdlib-data) is absent"))
    func landmarkCacheIsWrittenReadAndRebuilt() throws {
        let dir = Self.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let faces = Array(try Self.faces().prefix(5))
        try #require(!faces.isEmpty)
        let reference = try DlibShapePredictor(cacheDirectory: nil)
        #expect(reference.cacheUse == .none)
        func check(_ p: DlibShapePredictor) throws {
            for (img, box) in faces { #expect(try p.landmarks(gray: img, box: box) == reference.landmarks(gray: img, box: box)) }
        }
        let first = try DlibShapePredictor(cacheDirectory: dir)
        #expect(first.cacheUse == .written)
        let file = dir + "/" + ModelCache.landmarkFileName(modelPath: Self.model)
        #expect(FileManager.default.fileExists(atPath: file))
        let second = try DlibShapePredictor(cacheDirectory: dir)
        #expect(second.cacheUse == .read)
        try check(first); try check(second)

        // One flipped byte in the middle: the hash no longer matches, the cache is rebuilt.
        let h = try FileHandle(forUpdating: URL(fileURLWithPath: file))
        let size = try h.seekToEnd()
        try h.seek(toOffset: size / 2)
        let byte = try h.read(upToCount: 1) ?? Data([0])
        try h.seek(toOffset: size / 2)
        h.write(Data([byte[0] ^ 0x5A]))
        try h.close()
        let rebuilt = try DlibShapePredictor(cacheDirectory: dir)
        #expect(rebuilt.cacheUse == .written)
        try check(rebuilt)

        // Truncated: rebuilt too.
        let t = try FileHandle(forUpdating: URL(fileURLWithPath: file))
        try t.truncate(atOffset: 1000)
        try t.close()
        #expect(try DlibShapePredictor(cacheDirectory: dir).cacheUse == .written)
        #expect(try DlibShapePredictor(cacheDirectory: dir).cacheUse == .read)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.contains(".tmp.") }
        #expect(leftovers.isEmpty, "temporary files left: \(leftovers)")
    }

    /// Issue #16: with an empty cache the background loader hands both models over first and
    /// writes the landmark cache afterwards (`.deferred`, then `.written`); the file it wrote is
    /// read by the next load and gives the same points, and no temporary file stays behind.
    @Test(.enabled(if: haveModel, "the landmark model (libdlib-data) is absent"))
    func loaderWritesTheLandmarkCacheAfterHandingOver() throws {
        let dir = Self.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let events = Events()
        FaceModelLoader.loadInBackground(cacheDirectory: dir) { events.add($0) }
        try #require(events.waitForCount(2, seconds: 60), "the loader reported \(events.count) of 2 events")
        let all = events.all
        guard case .loaded(let detector, let model, _) = all[0] else { Issue.record("first event \(all[0])"); return }
        #expect(detector.cacheUse == .written)
        #expect(model.cacheUse == .deferred)
        guard case .cacheDone(let d, let l) = all[1] else { Issue.record("second event \(all[1])"); return }
        #expect(d == .written && l == .written)
        let again = try DlibShapePredictor(cacheDirectory: dir)
        #expect(again.cacheUse == .read)
        let faces = Array(try Self.faces().prefix(3))
        for (img, box) in faces { #expect(try again.landmarks(gray: img, box: box) == model.landmarks(gray: img, box: box)) }
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.contains(".tmp.") }
        #expect(leftovers.isEmpty, "temporary files left: \(leftovers)")
    }

    /// Thread-safe list of a loader's progress reports.
    final class Events: @unchecked Sendable {
        private let c = NSCondition()
        private var items: [FaceModelLoader.Progress] = []
        func add(_ p: FaceModelLoader.Progress) { c.lock(); items.append(p); c.broadcast(); c.unlock() }
        var all: [FaceModelLoader.Progress] { c.lock(); defer { c.unlock() }; return items }
        var count: Int { all.count }
        func waitForCount(_ n: Int, seconds: Double) -> Bool {
            let until = Date(timeIntervalSinceNow: seconds)
            c.lock(); defer { c.unlock() }
            while items.count < n { if !c.wait(until: until) { return items.count >= n } }
            return true
        }
    }

    /// A model file with another modification time (an updated package) gets a fresh cache.
    @Test(.enabled(if: haveModel, "the landmark model (libdlib-data) is absent"))
    func staleCacheIsRebuilt() throws {
        let dir = Self.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let copy = dir + "/model.dat"
        try FileManager.default.copyItem(atPath: Self.model, toPath: copy)
        #expect(try DlibShapePredictor(path: copy, cacheDirectory: dir).cacheUse == .written)
        #expect(try DlibShapePredictor(path: copy, cacheDirectory: dir).cacheUse == .read)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -3600)], ofItemAtPath: copy)
        #expect(try DlibShapePredictor(path: copy, cacheDirectory: dir).cacheUse == .written)
    }

    /// A cache directory that cannot hold files (here: a path through a regular file, which
    /// fails even for root) leaves the models working and says so.
    @Test func unwritableCacheIsSkipped() throws {
        let dir = Self.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(FileManager.default.createFile(atPath: dir + "/file", contents: Data("x".utf8)))
        let d = try DlibHOGDetector(cacheDirectory: dir + "/file")
        #expect(d.cacheUse == .unwritable)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["file"])
    }

    /// The detector read from its cache finds the same faces as the one decoded by dlib.
    @Test func detectorCacheGivesTheSameDetector() throws {
        let dir = Self.tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let a = try DlibHOGDetector(cacheDirectory: dir)
        let b = try DlibHOGDetector(cacheDirectory: dir)
        #expect(a.cacheUse == .written && b.cacheUse == .read)
        // Corrupt: rebuilt.
        let file = dir + "/frontal-face-detector.bin"
        let h = try FileHandle(forUpdating: URL(fileURLWithPath: file))
        try h.seek(toOffset: 5000)
        h.write(Data([0xFF, 0x00, 0xFF]))
        try h.close()
        let c = try DlibHOGDetector(cacheDirectory: dir)
        #expect(c.cacheUse == .written)
        let faces = try Self.faces().prefix(8)
        let decoded = try DlibHOGDetector(cacheDirectory: nil)
        for (img, _) in faces {
            let want = try decoded.detect(gray: img)
            #expect(try b.detect(gray: img) == want)
            #expect(try c.detect(gray: img) == want)
        }
    }

    @Test func cacheDirectoryFollowsXDG() {
        #expect(ModelCache.directory(environment: ["SELFIE_CAPTURE_CACHE_DIR": ""]) == nil)
        let d = Self.tempDir()
        #expect(ModelCache.directory(environment: ["SELFIE_CAPTURE_CACHE_DIR": d + "/x"]) == d + "/x")
        #expect(ModelCache.directory(environment: ["XDG_CACHE_HOME": d + "/xdg", "HOME": "/nowhere"]) == d + "/xdg/selfie-capture")
        #expect(ModelCache.directory(environment: ["HOME": d]) == d + "/.cache/selfie-capture")
        #expect(ModelCache.directory(environment: [:]) == nil)
        var isDir: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: d + "/.cache/selfie-capture", isDirectory: &isDir) && isDir.boolValue)
        try? FileManager.default.removeItem(atPath: d)
    }
}
