import Foundation
import Testing
import TestSupport
@testable import Media

@Suite struct OutputFolderTests {
    static func mode(_ p: String) -> Int? { (try? FileManager.default.attributesOfItem(atPath: p))?[.posixPermissions] as? Int }

    /// A generated folder is `selfie-capture-YYYYMMDD-HHMMSS` (then `-2`), mode 0700; files 0600.
    @Test func generatedFolder() throws {
        let parent = Tools.tempDir()
        let date = Date(timeIntervalSince1970: 1_800_000_000)
        let a = try OutputFolder.prepare(requested: nil, parent: parent, date: date)
        let b = try OutputFolder.prepare(requested: nil, parent: parent, date: date)
        #expect(a.path.hasPrefix(parent + "/selfie-capture-20") && b.path == a.path + "-2")
        #expect(Self.mode(a.path) == 0o700)
        let f = try a.write([1, 2, 3], to: "result.json")
        #expect(Self.mode(f) == 0o600 && Tools.readBytes(f) == [1, 2, 3])
        // Never replaced; no temporary left.
        #expect(throws: MediaError.cannotCreateOutput(path: f, reason: "file exists")) { try a.write([9], to: "result.json") }
        #expect(try FileManager.default.contentsOfDirectory(atPath: a.path) == ["result.json"])
    }

    /// `--output DIR`: an empty existing folder is adopted (chmod 0700); a non-empty one is refused.
    @Test func requestedFolder() throws {
        let dir = Tools.tempDir()
        chmod(dir, 0o755)
        let f = try OutputFolder.prepare(requested: dir)
        #expect(f.path == dir && Self.mode(dir) == 0o700)
        Tools.writeBytes([1], dir + "/old.avi")
        #expect(throws: MediaError.cannotCreateOutput(path: dir, reason: "folder exists and is not empty (never overwritten)")) {
            try OutputFolder.prepare(requested: dir)
        }
        #expect(Tools.readBytes(dir + "/old.avi") == [1])
    }

    /// Issue #19: parent folders that `--output` creates are made as `mkdir -p` makes them
    /// (0777 less the user's umask); only the capture folder itself is 0700.
    @Test func createdParentsFollowTheUmask() throws {
        let root = Tools.tempDir()
        let mask = umask(0o022); umask(mask)   // read the process umask without changing it
        let expected = 0o777 & ~Int(mask)
        let f = try OutputFolder.prepare(requested: root + "/a/b/capture")
        #expect(Self.mode(root + "/a") == expected && Self.mode(root + "/a/b") == expected)
        #expect(Self.mode(f.path) == 0o700)
        // A trailing slash names the same folder.
        let g = try OutputFolder.prepare(requested: root + "/c/capture2/")
        #expect(Self.mode(root + "/c") == expected && Self.mode(g.path) == 0o700)
    }

    /// Unwritable locations fail up front with a named error (exit 73), even as root.
    @Test func unwritable() {
        for p in ["/etc/passwd/out", "/proc/selfie-capture-out"] {
            #expect(throws: (any Error).self) { try OutputFolder.prepare(requested: p) }
            do { _ = try OutputFolder.prepare(requested: p) } catch let e as MediaError {
                #expect(e.exitCodeHint == 73)
                if case .cannotCreateOutput(let path, _) = e { #expect(path == p) } else { Issue.record("\(e)") }
            } catch { Issue.record("\(error)") }
        }
        // Below a regular file, the reason names that file (not Foundation's generic text).
        do { _ = try OutputFolder.prepare(requested: "/etc/passwd/a/b") } catch let e as MediaError {
            #expect(e == .cannotCreateOutput(path: "/etc/passwd/a/b", reason: "'/etc/passwd' is a file, not a folder"))
        } catch { Issue.record("\(error)") }
    }
}

@Suite struct FrameCollectorTests {
    static func frames(_ n: Int, w: Int = 64, h: Int = 48) throws -> [VideoFrame] {
        try (0..<n).map { i in
            let pic = Tools.picture(width: w, height: h, seed: i)
            let j = try JPEGCodec.encode(pic, quality: 85)
            return VideoFrame(index: i, timestampMs: i * 33, rgb: try JPEGCodec.decode(j).image, jpeg: j)
        }
    }

    /// before 2, interval 3, collect 3 over 20 frames → frames 2, 5, 8 as frame-001…003.jpg, 0600,
    /// stored as the source JPEG bytes.
    @Test func mobaiRule() throws {
        let folder = try OutputFolder.prepare(requested: Tools.tempDir() + "/out")
        let c = FrameCollector(options: FrameCollectionOptions(numberOfFramesBeforeCapture: 2, frameInterval: 3,
                                                               numberOfFrameToCollect: 3), folder: folder)
        let fs = try Self.frames(20)
        for f in fs { try c.offer(f) }
        #expect(c.collected.map(\.frameIndex) == [2, 5, 8])
        #expect(c.collected.map(\.relativePath) == ["frames/frame-001.jpg", "frames/frame-002.jpg", "frames/frame-003.jpg"])
        #expect(c.isComplete)
        #expect(Tools.readBytes(folder.file("frames/frame-002.jpg")) == fs[5].jpeg)
        #expect(OutputFolderTests.mode(folder.file("frames")) == 0o700)
        #expect(OutputFolderTests.mode(folder.file("frames/frame-001.jpg")) == 0o600)
    }

    /// Payload optimisation: crop = face box + 25 % per side, clamped; smaller file.
    @Test func payloadOptimizationShrinks() throws {
        #expect(FrameCollector.payloadCrop(faceBox: PixelRect(x: 200, y: 120, width: 240, height: 240), frameWidth: 640, frameHeight: 480)
                == PixelRect(x: 140, y: 60, width: 360, height: 360))
        #expect(FrameCollector.payloadCrop(faceBox: PixelRect(x: -50, y: 400, width: 100, height: 100), frameWidth: 640, frameHeight: 480)
                == PixelRect(x: 0, y: 375, width: 75, height: 105))
        #expect(FrameCollector.payloadCrop(faceBox: PixelRect(x: 900, y: 0, width: 10, height: 10), frameWidth: 640, frameHeight: 480) == nil)
    }

    static let long = TestSupport.shared("media/approach.avi")

    /// On a real clip frame (approach.avi frame 80, face box from its ground truth) the payload
    /// file is the crop scaled to 320 px and smaller than the stored source JPEG and over 1.5× smaller than a q90 frame (measured: 15627 B source, 24782 B q90 → 12792 B).
    @Test(.enabled(if: long != nil, "../shared/media/approach.avi absent"))
    func payloadOnSharedClip() throws {
        let src = try AVIFileSource(path: Self.long!)
        var frame: VideoFrame?
        for _ in 0...80 { frame = try src.nextFrame() }
        let f = try #require(frame)
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: Self.long!.replacingOccurrences(of: ".avi", with: ".json")))) as? [String: Any]
        let frames = try #require(json?["frames"] as? [[String: Any]])
        let face = try #require((frames[80]["faces"] as? [[String: Double]])?.first)
        let box = PixelRect(x: face["x"]!, y: face["y"]!, width: face["w"]!, height: face["h"]!)
        let (full, _) = try FrameCollector.encode(f, faceBox: box, optimize: false)
        let (small, crop) = try FrameCollector.encode(f, faceBox: box, optimize: true)
        let r = try #require(crop)
        let side = max(r.width, r.height)
        #expect(try JPEGCodec.dimensions(of: small) == (Int(r.width) * 320 / Int(side), Int(r.height) * 320 / Int(side)))
        #expect(full == f.jpeg!)
        // Smaller than the stored source JPEG (ffmpeg -q:v 6, already small), and 1.5× smaller
        // than a raw-source frame stored at fullQuality (90).
        let q90 = try JPEGCodec.encode(f.rgb, quality: FrameCollector.fullQuality)
        #expect(small.count < full.count, "payload \(small.count) B vs full \(full.count) B")
        #expect(small.count * 3 < q90.count * 2, "payload \(small.count) B vs q90 \(q90.count) B")
        print("payload optimisation on approach.avi#80: source JPEG \(full.count) B, q90 \(q90.count) B → \(small.count) B (crop \(r))")
    }
}

@Suite struct PacingTests {
    /// Realtime: frames wait for their timestamps; fast: no waiting at all.
    @Test func realtimeAndFast() {
        let clock = ManualClock(startMs: 1000)
        let p = Pacer(mode: .realtime, clock: clock)
        #expect(p.release(timestampMs: 0) == 1000)
        #expect(p.release(timestampMs: 33) == 1033)
        clock.advance(ms: 10)        // processing took 10 ms
        #expect(p.release(timestampMs: 67) == 1067)
        #expect(clock.sleeps == [33, 24])
        clock.advance(ms: 1000)      // consumer stalled: re-anchor instead of bursting
        #expect(p.release(timestampMs: 100) == 2067 && p.lateFrames == 1)
        #expect(p.release(timestampMs: 133) == 2100)
        let fastClock = ManualClock()
        let fast = Pacer(mode: .fast, clock: fastClock)
        for t in stride(from: 0, to: 1000, by: 33) { fast.release(timestampMs: t) }
        #expect(fastClock.sleeps.isEmpty)
    }

    /// `--loop`: the source restarts with continuing timestamps and indices; stats add up.
    @Test func looping() throws {
        let dir = Tools.tempDir()
        let j = try JPEGCodec.encode(Tools.picture(width: 16, height: 16))
        Tools.writeBytes(j + j, dir + "/two.mjpeg")
        let src = try LoopingSource { try MJPEGFileSource(path: dir + "/two.mjpeg") }
        var got: [(Int, Int)] = []
        for _ in 0..<5 { if let f = try src.nextFrame() { got.append((f.index, f.timestampMs)) } }
        #expect(got.map(\.0) == [0, 1, 2, 3, 4])
        #expect(got.map(\.1) == [0, 33, 66, 99, 132])
        #expect(src.loops == 2)
    }

    /// Without --loop a file source ends with nil (the app maps "ended early" to exit 75).
    @Test func endOfSource() throws {
        let dir = Tools.tempDir()
        Tools.writeBytes(try JPEGCodec.encode(Tools.picture(width: 16, height: 16)), dir + "/one.mjpeg")
        let src = try MJPEGFileSource(path: dir + "/one.mjpeg")
        #expect(try src.nextFrame() != nil)
        #expect(try src.nextFrame() == nil)
        #expect(try src.nextFrame() == nil)
        #expect(MediaError.sourceEnded("x").exitCodeHint == 75)
    }
}

@Suite struct DemoSourceTests {
    /// A small demo: 30 fps timestamps, background outside the photo, the photo's face centre
    /// drawn at the scripted face-box centre, and the scripted path far → close → off-centre → centre.
    @Test func scriptedPath() throws {
        // 100×100 "photo": face box (40, 40, 20, 20) with a distinct centre colour.
        var photo = Image(width: 100, height: 100, layout: .rgb, fill: 90)
        for y in 45..<55 { for x in 45..<55 { let i = 3 * (y * 100 + x); photo.pixels[i] = 250; photo.pixels[i + 1] = 10; photo.pixels[i + 2] = 10 } }
        let demo = DemoSource(photo: photo, faceBoxInPhoto: PixelRect(x: 40, y: 40, width: 20, height: 20), width: 160, height: 120)
        let f0 = try #require(try demo.nextFrame()), f1 = try #require(try demo.nextFrame())
        #expect(f0.timestampMs == 0 && f1.timestampMs == 33 && f0.jpeg == nil && f0.width == 160)
        #expect(Array(f0.rgb.pixels[0..<3]) == [176, 168, 156])         // background corner
        let c = 3 * (60 * 160 + 80)
        #expect(Array(f0.rgb.pixels[c..<(c + 3)]) == [250, 10, 10])     // face centre at frame centre
        #expect(abs(demo.faceBox(atMs: 0).height - 24) < 0.01)           // 0.20 × 120
        #expect(abs(demo.faceBox(atMs: 5000).height - 60) < 0.01)        // 0.50 × 120
        #expect(abs(demo.faceBox(atMs: 5500).x + 30 - 0.78 * 160) < 0.01)
        #expect(demo.faceBox(atMs: 9000) == demo.faceBox(atMs: 60000))   // still at the end
        #expect(abs(demo.faceBox(atMs: 9000).x + 30 - 80) < 0.01)
    }
}

/// `OutputFolder.parentDirectory`, which replaced Foundation's `deletingLastPathComponent`
/// (it traps on a one-character path: `--output z` crashed, found by a new-user trial).
@Suite struct ParentDirectoryTests {
    @Test(arguments: [("z", ""), ("z/", ""), ("oo", ""), ("/z", "/"), ("a/b", "a"), ("a/b/", "a"), ("/a/b//c", "/a/b"),
                      ("/", "/"), ("./z", "."), ("../x/y", "../x")])
    func parents(path: String, parent: String) {
        #expect(OutputFolder.parentDirectory(path) == parent)
    }

}
