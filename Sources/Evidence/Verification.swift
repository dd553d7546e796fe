/// A file as found in the folder when it is checked against its manifest.
public enum ObservedFile: Equatable, Sendable {
    /// A regular file that was read and hashed.
    case file(FileRecord)
    /// An entry that could not be hashed (unreadable, not a regular file); `reason` in words.
    case unreadable(path: String, reason: String)

    public var path: String {
        switch self {
        case .file(let r): return r.path
        case .unreadable(let p, _): return p
        }
    }
}

/// One way a folder differs from its manifest.
public enum Discrepancy: Equatable, Sendable {
    /// Listed in the manifest, not in the folder.
    case missing(path: String)
    /// In the folder, not listed in the manifest.
    case extra(path: String)
    /// Present but with another size or digest.
    case changed(path: String, expected: FileRecord, found: FileRecord)
    /// Present but could not be hashed.
    case unreadable(path: String, reason: String)

    public var path: String {
        switch self {
        case .missing(let p), .extra(let p), .changed(let p, _, _), .unreadable(let p, _): return p
        }
    }

    /// One line naming the file under `folder`: `DIR/frames/frame-001.jpg: changed (sha256 …,
    /// manifest …)`; `…: missing`; `…: extra (not in the manifest)`; `…: unreadable (reason)`.
    public func line(folder: String) -> String {
        let name = (folder.hasSuffix("/") ? folder : folder + "/") + path
        switch self {
        case .missing: return "\(name): missing"
        case .extra: return "\(name): extra (not in the manifest)"
        case .unreadable(_, let r): return "\(name): unreadable (\(r))"
        case .changed(_, let e, let f):
            var s = "\(name): changed (sha256 \(f.sha256), manifest \(e.sha256)"
            if e.bytes != f.bytes { s += "; \(f.bytes) bytes, manifest \(e.bytes)" }
            return s + ")"
        }
    }
}

/// Compares what a folder holds with what its manifest lists.
public enum Verification {
    /// The differences between `manifest` and `observed` (the folder's files other than the
    /// manifest), sorted by path; empty when every listed file is present with the same size
    /// and SHA-256 and nothing else is there.
    public static func compare(_ manifest: Manifest, observed: [ObservedFile]) -> [Discrepancy] {
        var expected: [String: FileRecord] = [:]
        for f in manifest.files { expected[f.path] = f }
        var out: [Discrepancy] = []
        var seen = Set<String>()
        for o in observed {
            seen.insert(o.path)
            guard let e = expected[o.path] else { out.append(.extra(path: o.path)); continue }
            switch o {
            case .unreadable(let p, let r): out.append(.unreadable(path: p, reason: r))
            case .file(let f):
                if f.sha256 != e.sha256 || f.bytes != e.bytes { out.append(.changed(path: f.path, expected: e, found: f)) }
            }
        }
        for f in manifest.files where !seen.contains(f.path) { out.append(.missing(path: f.path)) }
        return out.sorted { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
    }
}
