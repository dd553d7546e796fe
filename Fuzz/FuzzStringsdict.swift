// libFuzzer entry for the XML-plist reader and the .stringsdict model, including plural
// selection and formatting of every loaded entry (built by scripts/fuzz-l10n.sh).

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStringsdict(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let table = try? StringsdictModel.parse(bytes, file: "fuzz.stringsdict") else { return 0 }
    for entry in table.entries.values {
        let sig = StringsdictModel.signature(of: entry)
        let count = min(sig.types.keys.max() ?? 0, 16)
        var args: [FormatArgument] = []
        for i in 0..<count {
            switch sig.types[i + 1] ?? .string {
            case .int: args.append(.int(i == 0 ? 0 : 21 * i))
            case .double: args.append(.double(1.5))
            case .string: args.append(.string("s"))
            }
        }
        for locale in ["en", "pl"] { _ = try? TextFormatter.format(entry, args, locale: locale) }
    }
    return 0
}
