import Testing
import Camera
import Glibc

@Suite struct V4L2SmokeTests {
    /// libv4l2's open on a missing node fails with a named error carrying ENOENT.
    @Test func missingDeviceGivesENOENT() {
        #expect(throws: V4L2Error.open(path: "/dev/video97", errno: ENOENT)) {
            _ = try V4L2Device(path: "/dev/video97")
        }
    }
}
