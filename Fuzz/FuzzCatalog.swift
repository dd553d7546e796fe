// libFuzzer entry for the String Catalog reader (JSONReader + StringCatalog + the plural model),
// and the writers on what it reads (built by scripts/fuzz-l10n.sh).

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCatalog(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let catalog = try? StringCatalog.parse(bytes, file: "fuzz.xcstrings") else { return 0 }
    let (tables, _) = catalog.tables()
    for (_, l) in catalog.languages {
        _ = StringsWriter.strings(l.strings)
        _ = StringsWriter.xmlPlist(.dict(l.plurals))
    }
    _ = StringsWriter.catalog(sourceLanguage: catalog.sourceLanguage, tables: tables)
    return 0
}
