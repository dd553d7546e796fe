import Evidence
import Foundation
import Testing
import TestSupport
import Camera
import FakeV4L2
@testable import SelfieCaptureApp
import Media

/// `source.injection` and the camera's identity (issue #25), through the fake V4L2 device:
/// each known virtual camera identity (v4l2loopback's driver and bus_info as its
/// `vidioc_querycap` writes them, OBS Studio's card label, akvcam's driver and bus_info) is
/// flagged `virtualCamera` with its reasons; a USB webcam's identity is recorded from a sysfs
/// tree laid out as the kernel does (`class/video4linux/videoN/device` → the USB interface,
/// `idVendor`/`idProduct`/`serial` on its parent) and is not flagged; files, pipes and the demo
/// are replays.
@Suite struct InjectionSignalsTests {
    /// A camera record from the fake device with this identity.
    static func record(driver: String, card: String, busInfo: String, sysfs: String = "/nonexistent-sysfs") throws -> SourceRecord {
        let fake = FakeWebcams.webcam()
        fake.driver = driver; fake.card = card; fake.busInfo = busInfo
        fake.formats = [.init(fourcc: .mjpeg, sizes: [(64, 48, [30])])]
        fake.frames = try FakeWebcams.mjpegFrames(2)
        let cam = try V4L2CameraSource(path: "/dev/video0", options: FakeWebcams.options(fake, [.lowest]))
        defer { cam.close() }
        _ = try #require(try cam.nextFrame())
        return FrameSources.sourceRecord(of: cam, spec: "/dev/video0", sysfs: sysfs)
    }

    /// Identities as the drivers write them (v4l2loopback.c and akvcam's ioctl.c
    /// `vidioc_querycap`; OBS loads v4l2loopback with `card_label="OBS Virtual Camera"`).
    static let virtual: [(driver: String, card: String, bus: String, reasons: Int)] = [
        ("v4l2 loopback", "Dummy video device (0x0000)", "platform:v4l2loopback-000", 2),
        ("v4l2 loopback", "OBS Virtual Camera", "platform:v4l2loopback-007", 3),
        ("akvcam", "AkVCam Video Device", "platform:akvcam-0", 2),
        // A label alone (a loopback module with its driver name patched, OBS's label kept).
        ("uvcvideo", "OBS Virtual Camera", "usb-0000:00:14.0-1", 1),
    ]

    @Test(arguments: 0..<virtual.count)
    func knownVirtualCameraIsFlaggedOnEveryRun(_ i: Int) throws {
        let v = Self.virtual[i]
        for _ in 0..<3 {
            let r = try Self.record(driver: v.driver, card: v.card, busInfo: v.bus)
            let inj = try #require(r.injection)
            #expect(inj.level == .virtualCamera, "\(v)")
            #expect(inj.reasons.count == v.reasons, "\(inj.reasons)")
            #expect(r.camera?.usb == nil)
            // In the manifest's JSON, as written.
            let json = String(decoding: try JSONEncoder().encode(r), as: UTF8.self)
            #expect(json.contains("\"level\":\"virtualCamera\""))
        }
        let loop = try Self.record(driver: "v4l2 loopback", card: "Dummy", busInfo: "platform:v4l2loopback-000").injection
        #expect(loop?.reasons == ["driver 'v4l2 loopback' is v4l2loopback", "bus_info 'platform:v4l2loopback-000' is v4l2loopback's"])
    }

    /// A USB webcam: vendor, product and serial from sysfs, the kernel release as `uname -r`
    /// says (the oracle: /proc/sys/kernel/osrelease), nothing flagged.
    @Test func realCameraIdentityIsRecorded() throws {
        let root = NSTemporaryDirectory() + "sc-sysfs-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: root) }
        let usbDevice = root + "/devices/pci0000:00/0000:00:14.0/usb1/1-8"
        let interface = usbDevice + "/1-8:1.0"
        let node = root + "/class/video4linux/video0"
        let fm = FileManager.default
        try fm.createDirectory(atPath: interface + "/video4linux/video0", withIntermediateDirectories: true)
        try fm.createDirectory(atPath: node, withIntermediateDirectories: true)
        try "046d\n".write(toFile: usbDevice + "/idVendor", atomically: true, encoding: .utf8)
        try "085C\n".write(toFile: usbDevice + "/idProduct", atomically: true, encoding: .utf8)
        try "3C2B8F5E\n".write(toFile: usbDevice + "/serial", atomically: true, encoding: .utf8)
        try fm.createSymbolicLink(atPath: node + "/device", withDestinationPath: "../../../devices/pci0000:00/0000:00:14.0/usb1/1-8/1-8:1.0")

        let r = try Self.record(driver: "uvcvideo", card: "C922 Pro Stream Webcam", busInfo: "usb-0000:00:14.0-8", sysfs: root)
        let c = try #require(r.camera)
        #expect(c.usb == SourceRecord.USB(vendorId: "046d", productId: "085c", serial: "3C2B8F5E"))
        let osrelease = try String(contentsOfFile: "/proc/sys/kernel/osrelease", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(c.kernel == osrelease)
        #expect(r.injection == InjectionSignals(level: .none, reasons: []))

        // A USB device without a serial string: serial is null, not empty.
        try fm.removeItem(atPath: usbDevice + "/serial")
        #expect(FrameSources.usbIdentity(devicePath: "/dev/video0", sysfs: root)?.serial == nil)
        // Not in sysfs at all (a platform or virtual device): no USB identity.
        #expect(FrameSources.usbIdentity(devicePath: "/dev/video9", sysfs: root) == nil)
    }

    /// A renamed loopback (driver and bus_info patched, a camera's label) is NOT detected: the
    /// limit README states (w3c/mediacapture-main#896).
    @Test func renamedLoopbackIsNotDetected() throws {
        let r = try Self.record(driver: "uvcvideo", card: "HD Webcam", busInfo: "usb-0000:00:14.0-2")
        #expect(r.injection?.level == InjectionSignals.Level.none)
    }

    @Test func filesPipesAndTheDemoAreReplays() {
        for kind in [SourceRecord.Kind.file, .pipe, .demo] {
            let r = SourceRecord(kind: kind, spec: "x", width: 8, height: 8, fps: 30)
            #expect(r.injection?.level == .replay && r.injection?.reasons.count == 1, "\(kind)")
        }
    }
}
