import FlightLog

/// Big-endian reading and writing for the log-sync payloads (the same byte order, and FlightLog's byte helpers, as
/// the `.qlog` records they carry); this adds the cursor and the typed errors.
struct SyncByteWriter {
    private(set) var bytes: [UInt8] = []

    mutating func append(_ raw: [UInt8]) { bytes.append(contentsOf: raw) }

    mutating func integer<T: FixedWidthInteger>(_ value: T) { bytes.appendBigEndian(value) }

    /// A length-prefixed UTF-8 string; the caller has checked that it fits its prefix.
    mutating func string<Length: FixedWidthInteger>(_ text: String, length _: Length.Type) {
        integer(Length(truncatingIfNeeded: text.utf8.count))
        bytes.append(contentsOf: text.utf8)
    }
}

/// Bounds-checked big-endian reads; every read past the end is `.truncated`, never a trap.
struct SyncByteReader {
    let bytes: [UInt8]
    private(set) var offset = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var remaining: Int { bytes.count - offset }

    /// The magic and version every sync message starts with.
    mutating func header(magic: [UInt8], version: UInt8) throws(SyncWireError) {
        let got = Array(try raw(min(magic.count, bytes.count)))
        guard got == magic else { throw .badMagic(expected: magic, got: got) }
        let gotVersion = try integer(UInt8.self)
        guard gotVersion == version else { throw .unsupportedVersion(expected: version, got: gotVersion) }
    }

    mutating func integer<T: FixedWidthInteger>(_: T.Type) throws(SyncWireError) -> T {
        let size = MemoryLayout<T>.size
        guard let value = bytes.bigEndianValue(T.self, at: offset) else {
            throw .truncated(neededBytes: offset + size, gotBytes: bytes.count)
        }
        offset += size
        return value
    }

    mutating func raw(_ count: Int) throws(SyncWireError) -> ArraySlice<UInt8> {
        guard count >= 0, remaining >= count else {
            throw .truncated(neededBytes: offset + count, gotBytes: bytes.count)
        }
        defer { offset += count }
        return bytes[offset..<(offset + count)]
    }

    mutating func string(_ count: Int, field: String) throws(SyncWireError) -> String {
        let slice = try raw(count)
        guard let text = String(validating: slice, as: UTF8.self) else { throw .invalidUTF8(field: field) }
        return text
    }

    mutating func rest() -> ArraySlice<UInt8> {
        defer { offset = bytes.count }
        return bytes[offset...]
    }
}
