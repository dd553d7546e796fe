import CaptureFlow
import Foundation

/// `--challenge FILE`: the verifier's challenge (issue #25), read into a `ChallengePlan`.
enum ChallengeFile {
    /// A verifier's challenge file: `{"nonce": "…", "steps": [{"direction": "left"|"right"|"up",
    /// "timeoutMs": 1000…60000}, …]}` (1–10 steps; `timeoutMs` optional, default 8000).
    /// - Throws: `ChallengeFileError` naming what is wrong.
    static func parse(_ bytes: [UInt8]) throws -> ChallengePlan {
        guard let top = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any] else {
            throw ChallengeFileError.malformed("not a JSON object")
        }
        guard let nonce = top["nonce"] as? String, !nonce.isEmpty, nonce.count <= 256 else {
            throw ChallengeFileError.malformed("'nonce' must be a string of 1 to 256 characters")
        }
        guard let steps = top["steps"] as? [Any], (1...10).contains(steps.count) else {
            throw ChallengeFileError.malformed("'steps' must be an array of 1 to 10 steps")
        }
        var out: [ChallengeStep] = []
        for (i, s) in steps.enumerated() {
            guard let o = s as? [String: Any], let d = o["direction"] as? String else {
                throw ChallengeFileError.malformed("steps[\(i)]: missing 'direction'")
            }
            guard let dir = ChallengeDirection(rawValue: d) else {
                throw ChallengeFileError.malformed("steps[\(i)]: direction '\(d)' is not left, right or up")
            }
            var t = ChallengePlan.defaultStepTimeoutMs
            if let v = o["timeoutMs"] {
                guard let n = v as? Int, (1_000...60_000).contains(n) else {
                    throw ChallengeFileError.malformed("steps[\(i)]: 'timeoutMs' must be an integer from 1000 to 60000")
                }
                t = n
            }
            out.append(ChallengeStep(direction: dir, timeoutMs: t))
        }
        return ChallengePlan(nonce: nonce, steps: out, seed: nil)
    }
}
