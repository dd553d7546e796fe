import CaptureFlow
import FaceAnalysis
import Testing

@Suite struct HeadPoseTests {
    /// The fit recovers the angles the model was turned by (exact data: within 0.01°), with the
    /// documented signs.
    @Test(arguments: [(0.0, 0.0, 0.0), (20, 0, 0), (-20, 0, 0), (0, 15, 0), (0, -15, 0), (0, 0, 30), (0, 0, -35),
                      (12, -8, 5), (-25, 10, -20)])
    func recoversSyntheticPose(yaw: Double, pitch: Double, roll: Double) throws {
        let lm = HeadPose.syntheticLandmarks(yaw: yaw, pitch: pitch, roll: roll)
        let p = try #require(HeadPose.estimate(lm))
        #expect(abs(p.yaw - yaw) < 0.01 && abs(p.pitch - pitch) < 0.01 && abs(p.roll - roll) < 0.01, "\(p)")
    }

    /// Signs in image terms: roll + is counter-clockwise as seen (the right eye corner, 45, rises
    /// above the left one, 36, in y-down pixels); yaw + turns the nose tip (30) towards the frame's
    /// right of the eye midpoint; pitch + (chin up) puts the nose tip higher relative to the eyes.
    @Test func signsInPixels() {
        let rolled = HeadPose.syntheticLandmarks(yaw: 0, pitch: 0, roll: 20)
        #expect(rolled[45].y < rolled[36].y)
        let turned = HeadPose.syntheticLandmarks(yaw: 20, pitch: 0, roll: 0)
        #expect(turned[30].x > (turned[36].x + turned[45].x) / 2)
        let up = HeadPose.syntheticLandmarks(yaw: 0, pitch: 15, roll: 0)
        let level = HeadPose.syntheticLandmarks(yaw: 0, pitch: 0, roll: 0)
        #expect(up[30].y - up[36].y < level[30].y - level[36].y)
    }

    @Test func tooFewLandmarksGiveNil() {
        #expect(HeadPose.estimate([]) == nil)
        #expect(HeadPose.estimate(Array(repeating: Point(x: 1, y: 1), count: 68)) == nil)
    }
}
