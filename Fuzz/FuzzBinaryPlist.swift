// libFuzzer entry for the binary property-list reader (bplist00), read as a `.strings` table
// and as a `.stringsdict` model with plural formatting (built by scripts/fuzz-l10n.sh).

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBinaryPlist(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    // Every input is taken as a binary plist: the header is forced so the fuzzer explores the
    // trailer, offset table and objects rather than the 8 magic bytes.
    var bytes = Array("bplist00".utf8)
    bytes += UnsafeBufferPointer(start: data, count: size)
    _ = try? StringsParser.parse(bytes, file: "fuzz.strings")
    guard let plist = try? BinaryPlist.parse(bytes, file: "fuzz.plist") else { return 0 }
    let table = StringsdictModel.load(plist, file: "fuzz.stringsdict")
    for entry in table.entries.values {
        for locale in ["en", "pl"] { _ = try? TextFormatter.format(entry, [.int(3), .int(1), .string("s")], locale: locale) }
    }
    return 0
}
