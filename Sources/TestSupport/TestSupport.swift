import Foundation

/// Helpers shared by the test targets: shared-material lookup and text snapshots.
public enum TestSupport {
    /// The project root, found from a test file's `#filePath` (the folder holding Package.swift).
    public static func projectRoot(from filePath: String = #filePath) -> URL {
        var url = URL(fileURLWithPath: filePath).deletingLastPathComponent()
        while url.path != "/" {
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url }
            url.deleteLastPathComponent()
        }
        return URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    }

    /// `../shared` beside the project root, or `nil` when it is absent (tests then skip with a message).
    public static var sharedDir: URL? {
        let url = projectRoot().deletingLastPathComponent().appendingPathComponent("shared")
        return FileManager.default.fileExists(atPath: url.path) ? url : nil
    }

    /// A path under `../shared`, or nil when that file is absent.
    public static func shared(_ relative: String) -> String? {
        guard let dir = sharedDir else { return nil }
        let p = dir.appendingPathComponent(relative).path
        return FileManager.default.fileExists(atPath: p) ? p : nil
    }

    /// The ground-truth clips of shared/media and shared/media/people, as `NAME` or
    /// `people/NAME` (no extension), sorted; `long` (the benchmark clip) left out; empty when
    /// ../shared/media is absent. Each has `NAME.avi` and `NAME.json` (its ground truth).
    public static func mediaClips() -> [String] {
        guard let dir = shared("media") else { return [] }
        let fm = FileManager.default
        let top = ((try? fm.contentsOfDirectory(atPath: dir)) ?? []).filter { $0.hasSuffix(".avi") && $0 != "long.avi" }
        let people = ((try? fm.contentsOfDirectory(atPath: dir + "/people")) ?? []).filter { $0.hasSuffix(".avi") }.map { "people/" + $0 }
        return (top + people).map { String($0.dropLast(4)) }.sorted()
    }

    /// Compares `actual` with the snapshot `name` stored in the test target's `Snapshots/` folder
    /// beside `filePath`. With `SNAPSHOT_RECORD=1` in the environment it writes the snapshot and
    /// returns a failure message (a recording run must fail, so it is never mistaken for a pass).
    /// - Returns: nil when equal, else a description of the first differing line.
    public static func checkSnapshot(_ actual: String, named name: String, filePath: String = #filePath) -> String? {
        let dir = URL(fileURLWithPath: filePath).deletingLastPathComponent().appendingPathComponent("Snapshots")
        let file = dir.appendingPathComponent(name)
        if ProcessInfo.processInfo.environment["SNAPSHOT_RECORD"] == "1" {
            try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            try? actual.write(to: file, atomically: true, encoding: .utf8)
            return "recorded snapshot \(file.path); run again without SNAPSHOT_RECORD"
        }
        guard let expected = try? String(contentsOf: file, encoding: .utf8) else {
            return "missing snapshot \(file.path); record it with SNAPSHOT_RECORD=1"
        }
        if expected == actual { return nil }
        let a = actual.components(separatedBy: "\n"), e = expected.components(separatedBy: "\n")
        for i in 0..<max(a.count, e.count) {
            let al = i < a.count ? a[i] : "<end>", el = i < e.count ? e[i] : "<end>"
            if al != el { return "snapshot \(name) differs at line \(i + 1):\n  expected: \(el.debugDescription)\n  actual:   \(al.debugDescription)" }
        }
        return "snapshot \(name) differs"
    }

    /// A fresh temporary folder holding `files` (relative path → UTF-8 content), for tests of
    /// string folders and the like. `prefix` names it, to tell runs apart in /tmp.
    public static func tempTree(_ files: [String: String], prefix: String = "tree") throws -> String {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)").path
        for (rel, content) in files {
            let url = URL(fileURLWithPath: root + "/" + rel)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try content.write(to: url, atomically: true, encoding: .utf8)
        }
        return root
    }
}
