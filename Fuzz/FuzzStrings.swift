// libFuzzer entry for the .strings parser (built by scripts/fuzz-l10n.sh, not a SwiftPM target).
// Compiled in one module with Sources/Localization/*.swift, so internal API is visible.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStrings(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let table = try? StringsParser.parse(bytes, file: "fuzz.strings") {
        for (k, v) in table.values {
            _ = FormatString.tokenize(k)
            _ = TextFormatter.signature(of: v)
        }
    }
    return 0
}
