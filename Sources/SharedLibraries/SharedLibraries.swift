#if canImport(Glibc)
import Glibc
#endif

/// The Swift side of a C shim's lazy loader (issue #28: libchafa and glib in `CChafa`, FFmpeg in
/// `CFFmpeg`, opened on first use instead of linked): one home for passing the sonames as C
/// strings and reading back which library failed and why.
public enum SharedLibraries {
    /// A shim's loader, `int NAME_load(const char *const *names, int *failed_index, char *message,
    /// size_t length)`: opens `names` (NULL: the shim's own sonames) and resolves every function
    /// the shim calls; returns 0, or non-zero with the failed library's index and the dynamic
    /// loader's message (`dlerror`).
    public typealias Loader = (UnsafePointer<UnsafePointer<CChar>?>?, UnsafeMutablePointer<Int32>?,
                               UnsafeMutablePointer<CChar>?, Int) -> Int32

    /// Runs `loader` on `names` (nil: the shim's defaults).
    /// - Returns: nil when every library opened and resolved; else the library that failed (its
    ///   entry in `names ?? defaults`, or `fallback` when the shim named no index) and the dynamic
    ///   loader's message (at most 511 bytes).
    public static func open(_ names: [String]?, defaults: [String], fallback: String,
                            loader: Loader) -> (library: String, reason: String)? {
        var failed: Int32 = -1
        let capacity = 512
        var message = [CChar](repeating: 0, count: capacity)
        let rc: Int32
        if let names {
            let copies = names.map { strdup($0) }
            defer { copies.forEach { free($0) } }
            let pointers: [UnsafePointer<CChar>?] = copies.map { $0.map { UnsafePointer($0) } }
            rc = loader(pointers, &failed, &message, capacity)
        } else {
            rc = loader(nil, &failed, &message, capacity)
        }
        guard rc != 0 else { return nil }
        let used = names ?? defaults
        let library = used.indices.contains(Int(failed)) ? used[Int(failed)] : fallback
        return (library, String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }
}
