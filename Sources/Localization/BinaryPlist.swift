/// A pure-Swift reader of Apple's binary property lists (`bplist00`, as CoreFoundation's
/// `CFBinaryPList.c` writes them), into the same `PlistValue` the XML reader gives.
///
/// Layout (CFBinaryPList.c): an 8-byte header `bplist00`; the objects; an offset table
/// (`objectCount` big-endian offsets of `offsetSize` bytes each); a 32-byte trailer (6 unused
/// bytes, `offsetSize` 1–8, `refSize` 1–8, `objectCount`, `topObject`, `offsetTableOffset`, each
/// 8 bytes big-endian). Objects read: `0x08`/`0x09` false/true, `0x1n` integer of 2ⁿ bytes (1, 2
/// and 4 unsigned, 8 signed, 16 when it fits in 64 bits), `0x2n` real (4 or 8 bytes), `0x33`
/// date, `0x4n` data, `0x5n` ASCII string, `0x6n` UTF-16BE string, `0x7n` UTF-8 string, `0xAn`
/// array, `0xDn` dict with string keys (`n = 15`: the count follows as an integer object).
///
/// Nothing in the file is trusted: the trailer's sizes, the offset table's bounds, every offset,
/// count and reference is checked before use; a container that contains itself (a cycle) is
/// refused; nesting is limited to `XMLPlist.maxDepth`; and the values produced are limited to
/// `maxValues(for:)` so shared sub-trees cannot expand without bound. Errors are
/// `StringsFileError.Reason.binary` with the byte offset and what was expected there.
public enum BinaryPlist {
    /// The 8 bytes every file this reader accepts starts with.
    public static let magic: [UInt8] = Array("bplist00".utf8)

    /// Whether `bytes` start like a binary property list (`bplist`, any version).
    public static func isBinary(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 6 && bytes[0] == 0x62 && bytes[1] == 0x70 && bytes[2] == 0x6C && bytes[3] == 0x69
            && bytes[4] == 0x73 && bytes[5] == 0x74
    }

    /// Most values (containers, strings, numbers…) produced from a file of `byteCount` bytes:
    /// 8 per byte, plus 1024. A file without shared collections produces at most one value per
    /// reference, and a reference takes at least one byte, so only crafted sharing hits this.
    public static func maxValues(for byteCount: Int) -> Int { byteCount * 8 + 1024 }

    /// Parses a binary property list.
    /// - Parameter file: the name used in error messages.
    /// - Throws: `StringsFileError` with `.binary(byteOffset:expected:)`.
    public static func parse(_ bytes: [UInt8], file: String) throws -> PlistValue {
        try bytes.withUnsafeBufferPointer { buf in
            var r = try Reader(buf: buf, file: file)
            return try r.object(r.top, depth: 0)
        }
    }

    struct Reader {
        let buf: UnsafeBufferPointer<UInt8>
        let file: String
        var offsetSize = 0
        var refSize = 0
        var count = 0
        var top = 0
        var tableStart = 0
        /// Objects being read (on the current path): a reference to one of them is a cycle.
        var active: [Bool] = []
        var produced = 0
        let budget: Int

        func fail(_ offset: Int, _ expected: String) -> StringsFileError {
            StringsFileError(file: file, line: 1, column: 1, reason: .binary(byteOffset: offset, expected: expected))
        }

        init(buf: UnsafeBufferPointer<UInt8>, file: String) throws {
            self.buf = buf; self.file = file
            budget = BinaryPlist.maxValues(for: buf.count)
            let n = buf.count
            for (k, m) in BinaryPlist.magic.enumerated() where k >= n || buf[k] != m {
                throw fail(min(k, n), "the header 'bplist00'" + (k >= 6 ? " (only version 00 is read)" : ""))
            }
            guard n >= 8 + 1 + 32 else { throw fail(n, "a 32-byte trailer after at least one object (file is \(n) bytes)") }
            let t = n - 32
            offsetSize = Int(buf[t + 6])
            refSize = Int(buf[t + 7])
            guard (1...8).contains(offsetSize) else { throw fail(t + 6, "an offset size of 1 to 8 bytes, found \(offsetSize)") }
            guard (1...8).contains(refSize) else { throw fail(t + 7, "an object reference size of 1 to 8 bytes, found \(refSize)") }
            let maxObjects = t - 8
            let rawCount = Self.uint(buf, t + 8, 8)
            guard rawCount >= 1, rawCount <= UInt64(maxObjects) else {
                throw fail(t + 8, "an object count of 1 to \(maxObjects) (one byte each at least), found \(rawCount)")
            }
            count = Int(rawCount)
            let rawTop = Self.uint(buf, t + 16, 8)
            guard rawTop < rawCount else { throw fail(t + 16, "a top object below the object count \(count), found \(rawTop)") }
            top = Int(rawTop)
            let rawTable = Self.uint(buf, t + 24, 8)
            let (tableBytes, o1) = count.multipliedReportingOverflow(by: offsetSize)
            guard rawTable >= 9, rawTable <= UInt64(t), !o1, Int(rawTable) + tableBytes <= t else {
                throw fail(t + 24, "an offset table between byte 9 and the trailer (\(count) × \(offsetSize) bytes before byte \(t)), found offset \(rawTable)")
            }
            tableStart = Int(rawTable)
            active = [Bool](repeating: false, count: count)
            // Every offset must point into the object area.
            for k in 0..<count {
                let at = tableStart + k * offsetSize
                let off = Self.uint(buf, at, offsetSize)
                guard off >= 8, off < UInt64(tableStart) else {
                    throw fail(at, "the offset of object \(k) between 8 and \(tableStart - 1) (the object area), found \(off)")
                }
            }
        }

        @inline(__always) static func uint(_ buf: UnsafeBufferPointer<UInt8>, _ at: Int, _ size: Int) -> UInt64 {
            var v: UInt64 = 0
            for k in 0..<size { v = v << 8 | UInt64(buf[at + k]) }
            return v
        }

        func offset(of ref: Int) -> Int { Int(Self.uint(buf, tableStart + ref * offsetSize, offsetSize)) }

        /// Checks that `length` bytes from `at` lie in the object area.
        func need(_ at: Int, _ length: Int, _ what: String) throws {
            let (end, o) = at.addingReportingOverflow(length)
            guard !o, length >= 0, end <= tableStart else {
                throw fail(at, "\(what) (\(length) bytes) inside the object area, which ends at byte \(tableStart)")
            }
        }

        /// The count of a container/string marker's low nibble (15: an integer object follows).
        /// Returns the count and where the payload starts.
        func length(_ marker: UInt8, at start: Int) throws -> (Int, Int) {
            let low = Int(marker & 0x0F)
            if low != 0x0F { return (low, start + 1) }
            let at = start + 1
            try need(at, 1, "an integer marker for the length")
            let m = buf[at]
            guard m & 0xF0 == 0x10, m & 0x0F <= 3 else {
                throw fail(at, "an integer (0x10-0x13) giving the length, found 0x\(hex2(m))")
            }
            let size = 1 << Int(m & 0x0F)
            try need(at + 1, size, "the length integer")
            let v = Self.uint(buf, at + 1, size)
            // Bounded before any arithmetic; `need` then checks the payload against the object area.
            guard v <= UInt64(buf.count) else { throw fail(at, "a length of at most \(buf.count) (the file size), found \(v)") }
            return (Int(v), at + 1 + size)
        }

        mutating func ref(at pos: Int) throws -> Int {
            let r = Self.uint(buf, pos, refSize)
            guard r < UInt64(count) else { throw fail(pos, "an object reference below \(count), found \(r)") }
            return Int(r)
        }

        mutating func object(_ ref: Int, depth: Int) throws -> PlistValue {
            let start = offset(of: ref)
            produced += 1
            guard produced <= budget else {
                throw fail(start, "at most \(budget) values for a file of \(buf.count) bytes (shared collections expand too far)")
            }
            let marker = buf[start]
            switch marker >> 4 {
            case 0x0:
                switch marker {
                case 0x08: return .bool(false)
                case 0x09: return .bool(true)
                default: throw fail(start, "an object marker, found 0x\(hex2(marker)) (null and fill are not property-list values)")
                }
            case 0x1:
                let sizeLog = Int(marker & 0x0F)
                guard sizeLog <= 4 else { throw fail(start, "an integer of 1, 2, 4, 8 or 16 bytes, found marker 0x\(hex2(marker))") }
                let size = 1 << sizeLog
                try need(start + 1, size, "the integer")
                if size == 16 {
                    let hi = Self.uint(buf, start + 1, 8), lo = Self.uint(buf, start + 9, 8)
                    let v = Int64(bitPattern: lo)
                    guard (hi == 0 && v >= 0) || (hi == UInt64.max && v < 0) else {
                        throw fail(start, "an integer that fits in 64 bits")
                    }
                    return .integer(Int(v))
                }
                let u = Self.uint(buf, start + 1, size)
                return .integer(size == 8 ? Int(Int64(bitPattern: u)) : Int(u))
            case 0x2:
                switch marker & 0x0F {
                case 2:
                    try need(start + 1, 4, "the 4-byte real")
                    return .real(Double(Float(bitPattern: UInt32(Self.uint(buf, start + 1, 4)))))
                case 3:
                    try need(start + 1, 8, "the 8-byte real")
                    return .real(Double(bitPattern: Self.uint(buf, start + 1, 8)))
                default: throw fail(start, "a real of 4 or 8 bytes, found marker 0x\(hex2(marker))")
                }
            case 0x3:
                guard marker == 0x33 else { throw fail(start, "a date (0x33), found 0x\(hex2(marker))") }
                try need(start + 1, 8, "the date")
                return .date(Self.iso8601(Double(bitPattern: Self.uint(buf, start + 1, 8))))
            case 0x4:
                let (n, at) = try length(marker, at: start)
                try need(at, n, "the data")
                return .data(Array(UnsafeBufferPointer(rebasing: buf[at..<(at + n)])))
            case 0x5:
                let (n, at) = try length(marker, at: start)
                try need(at, n, "the ASCII string")
                for k in at..<(at + n) where buf[k] >= 0x80 {
                    throw fail(k, "an ASCII character in an ASCII string, found 0x\(hex2(buf[k]))")
                }
                return .string(String(decoding: UnsafeBufferPointer(rebasing: buf[at..<(at + n)]), as: UTF8.self))
            case 0x6:
                let (n, at) = try length(marker, at: start)
                let (bytes, o) = n.multipliedReportingOverflow(by: 2)
                guard !o else { throw fail(start, "a UTF-16 string length that fits in the file") }
                try need(at, bytes, "the UTF-16 string")
                return .string(try utf16(at, n))
            case 0x7:
                let (n, at) = try length(marker, at: start)
                try need(at, n, "the UTF-8 string")
                let slice = UnsafeBufferPointer(rebasing: buf[at..<(at + n)])
                if let bad = TextDecoding.firstInvalidUTF8(slice) { throw fail(at + bad, "valid UTF-8 in a UTF-8 string") }
                return .string(String(decoding: slice, as: UTF8.self))
            case 0xA, 0xD:
                let isDict = marker >> 4 == 0xD
                let (n, at) = try length(marker, at: start)
                let (refBytes, o) = n.multipliedReportingOverflow(by: refSize * (isDict ? 2 : 1))
                guard !o else { throw fail(start, "a container size that fits in the file") }
                try need(at, refBytes, isDict ? "the dictionary's \(n) key and \(n) value references" : "the array's \(n) references")
                guard depth < XMLPlist.maxDepth else { throw fail(start, "nesting of at most \(XMLPlist.maxDepth) levels") }
                guard !active[ref] else { throw fail(start, "no cycle (object \(ref) contains itself)") }
                active[ref] = true
                defer { active[ref] = false }
                if !isDict {
                    var items: [PlistValue] = []
                    items.reserveCapacity(n)
                    for k in 0..<n {
                        let r = try self.ref(at: at + k * refSize)
                        items.append(try object(r, depth: depth + 1))
                    }
                    return .array(items)
                }
                var entries: [(key: String, value: PlistValue)] = []
                entries.reserveCapacity(n)
                // A repeated key keeps its last value in the first place (as the XML reader does);
                // small dicts are searched, large ones indexed.
                var index: [String: Int] = [:]
                if n > 8 { index.reserveCapacity(n) }
                for k in 0..<n {
                    let keyPos = at + k * refSize
                    let kr = try self.ref(at: keyPos)
                    guard case .string(let key) = try object(kr, depth: depth + 1) else {
                        throw fail(keyPos, "a reference to a string (dictionary key \(k))")
                    }
                    let vr = try self.ref(at: at + (n + k) * refSize)
                    let value = try object(vr, depth: depth + 1)
                    if n <= 8 {
                        if let old = entries.firstIndex(where: { $0.key == key }) { entries[old].value = value } else { entries.append((key, value)) }
                    } else if let old = index[key] {
                        entries[old].value = value
                    } else {
                        index[key] = entries.count; entries.append((key, value))
                    }
                }
                return .dict(entries)
            default:
                let kind = marker >> 4 == 0x8 ? " (a UID, from a keyed archive)" : marker >> 4 == 0xC ? " (a set)" : ""
                throw fail(start, "a property-list object marker, found 0x\(hex2(marker))" + kind)
            }
        }

        func hex2(_ b: UInt8) -> String { let s = String(b, radix: 16, uppercase: true); return b < 16 ? "0" + s : s }

        /// `n` UTF-16BE code units at `at`; a lone surrogate is an error.
        func utf16(_ at: Int, _ n: Int) throws -> String {
            var out: [UInt8] = []
            out.reserveCapacity(n)
            var k = 0
            while k < n {
                let p = at + 2 * k
                var u = UInt32(buf[p]) << 8 | UInt32(buf[p + 1])
                if u >= 0xD800 && u <= 0xDBFF {
                    guard k + 1 < n else { throw fail(p, "a low surrogate after the high surrogate U+\(hex4(UInt16(u)))") }
                    let lo = UInt32(buf[p + 2]) << 8 | UInt32(buf[p + 3])
                    guard lo >= 0xDC00 && lo <= 0xDFFF else { throw fail(p + 2, "a low surrogate after the high surrogate U+\(hex4(UInt16(u)))") }
                    u = 0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00)
                    k += 2
                } else if u >= 0xDC00 && u <= 0xDFFF {
                    throw fail(p, "no lone low surrogate (found U+\(hex4(UInt16(u))))")
                } else {
                    k += 1
                }
                TextDecoding.appendUTF8(&out, u)
            }
            return String(decoding: out, as: UTF8.self)
        }

        /// Seconds since 2001-01-01T00:00:00Z as ISO 8601 (`2026-12-01T10:00:00Z`), whole seconds.
        static func iso8601(_ seconds: Double) -> String {
            guard seconds.isFinite, abs(seconds) < 1e13 else { return "\(seconds)" }
            let total = Int64(seconds.rounded(.down)) + 978_307_200   // to the Unix epoch
            var days = total / 86_400
            var rem = total % 86_400
            if rem < 0 { rem += 86_400; days -= 1 }
            // Civil from days (H. Hinnant's algorithm).
            let z = days + 719_468
            let era = (z >= 0 ? z : z - 146_096) / 146_097
            let doe = z - era * 146_097
            let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
            let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
            let mp = (5 * doy + 2) / 153
            let d = doy - (153 * mp + 2) / 5 + 1
            let m = mp < 10 ? mp + 3 : mp - 9
            let y = yoe + era * 400 + (m <= 2 ? 1 : 0)
            func two(_ v: Int64) -> String { v < 10 ? "0\(v)" : "\(v)" }
            return "\(y)-\(two(m))-\(two(d))T\(two(rem / 3600)):\(two(rem / 60 % 60)):\(two(rem % 60))Z"
        }
    }
}
