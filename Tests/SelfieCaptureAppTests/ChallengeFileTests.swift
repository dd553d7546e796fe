import CaptureFlow
import Testing
@testable import SelfieCaptureApp

/// `--challenge FILE` (issue #25): the verifier's JSON read into a plan; each fault named.
@Suite struct ChallengeFileTests {
    @Test func verifiersFileGivesNonceStepsAndTimeouts() throws {
        let p = try ChallengeFile.parse(Array(#"{"nonce": "srv-8f3a", "steps": [{"direction": "up", "timeoutMs": 5000}, {"direction": "left"}]}"#.utf8))
        #expect(p.nonce == "srv-8f3a" && p.seed == nil)
        #expect(p.steps == [ChallengeStep(direction: .up, timeoutMs: 5000), ChallengeStep(direction: .left, timeoutMs: 8000)])
    }

    @Test(arguments: [
        ("[]", "not a JSON object"),
        (#"{"steps": [{"direction": "up"}]}"#, "'nonce' must be a string of 1 to 256 characters"),
        (#"{"nonce": "n", "steps": []}"#, "'steps' must be an array of 1 to 10 steps"),
        (#"{"nonce": "n", "steps": [{"direction": "down"}]}"#, "steps[0]: direction 'down' is not left, right or up"),
        (#"{"nonce": "n", "steps": [{"direction": "up", "timeoutMs": 10}]}"#, "steps[0]: 'timeoutMs' must be an integer from 1000 to 60000"),
        (#"{"nonce": "n", "steps": [{}]}"#, "steps[0]: missing 'direction'"),
    ])
    func faultsAreNamed(_ text: String, _ message: String) {
        #expect(throws: ChallengeFileError.malformed(message)) { try ChallengeFile.parse(Array(text.utf8)) }
    }
}
