import Testing
@testable import TerminalUI

/// The active challenge's instruction on the capture screen (issue #25): the arrow points to the
/// person's side as the preview shows it, and the oval can draw it (a BigDigits glyph).
@Suite struct ChallengeArrowTests {
    @Test func arrowFollowsTheMirror() {
        #expect(CaptureViewState.challengeArrow("selfie_capture_challenge_left", mirrored: true) == "←")
        #expect(CaptureViewState.challengeArrow("selfie_capture_challenge_left", mirrored: false) == "→")
        #expect(CaptureViewState.challengeArrow("selfie_capture_challenge_right", mirrored: true) == "→")
        #expect(CaptureViewState.challengeArrow("selfie_capture_challenge_up", mirrored: false) == "↑")
    }

    @Test func arrowsAreGlyphsTheOvalCanDraw() {
        for a in ["←", "→", "↑"] {
            let b = BigDigits.bitmap(a, scale: 1)
            #expect(b.width == 3 && b.height == 5 && b.ink.filter { $0 }.count == 7, "\(a)")
        }
        // Left and right are mirror images.
        let l = BigDigits.bitmap("←", scale: 1), r = BigDigits.bitmap("→", scale: 1)
        for y in 0..<5 { for x in 0..<3 { #expect(l[x, y] == r[2 - x, y]) } }
    }
}
