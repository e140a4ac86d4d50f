import Checksums
/// The header at the start of every `.qlog` file (see FORMAT.md):
///
///     offset  size  field
///     0       8     magic 0x89 'Q' 'L' 'O' 'G' 0x0D 0x0A 0x1A
///     8       2     format version, UInt16 BE (currently 1)
///     10      8     creation time, µs since the Unix epoch, Int64 BE
///     18      2     note length L, UInt16 BE
///     20      L     note, UTF-8 (free-form: drone id, logger version, host…)
///     20+L    4     CRC-32C over bytes [0, 20+L), UInt32 BE
public struct LogFileHeader: Sendable, Equatable {
    /// PNG-style magic: the high byte catches 7-bit transfers, CR LF and 0x1A catch text-mode mangling.
    public static let magic: [UInt8] = [0x89, 0x51, 0x4C, 0x4F, 0x47, 0x0D, 0x0A, 0x1A]
    public static let currentFormatVersion: UInt16 = 1
    public static let maxNoteBytes = Int(UInt16.max)
    static let fixedBytes = 20

    public let formatVersion: UInt16
    public let createdUs: Int64
    public let note: String

    /// Fails when the note does not fit its 16-bit length prefix.
    public init(createdUs: Int64, note: String = "") throws(LogHeaderError) {
        guard note.utf8.count <= Self.maxNoteBytes else {
            throw .noteTooLong(bytes: note.utf8.count, maxBytes: Self.maxNoteBytes)
        }
        self.formatVersion = Self.currentFormatVersion
        self.createdUs = createdUs
        self.note = note
    }

    /// Number of bytes `encoded()` produces.
    public var encodedByteCount: Int { Self.fixedBytes + note.utf8.count + 4 }

    public func encoded() -> [UInt8] {
        var bytes = Self.magic
        bytes.reserveCapacity(encodedByteCount)
        bytes.appendBigEndian(formatVersion)
        bytes.appendBigEndian(createdUs)
        bytes.appendBigEndian(UInt16(truncatingIfNeeded: note.utf8.count))
        bytes.append(contentsOf: note.utf8)
        bytes.appendBigEndian(CRC32C.checksum(bytes))
        return bytes
    }

    /// Parses the header at the start of `bytes`; returns it and the offset of the first record.
    public static func decode(_ bytes: [UInt8]) throws(LogHeaderError) -> (header: LogFileHeader, recordsOffset: Int) {
        guard bytes.count >= magic.count else {
            throw .truncated(neededBytes: fixedBytes + 4, availableBytes: bytes.count)
        }
        guard bytes.hasBytes(magic, at: 0) else { throw .badMagic(found: Array(bytes[0..<magic.count])) }
        guard let version = bytes.bigEndianValue(UInt16.self, at: 8),
              let createdUs = bytes.bigEndianValue(Int64.self, at: 10),
              let noteLength = bytes.bigEndianValue(UInt16.self, at: 18)
        else { throw .truncated(neededBytes: fixedBytes + 4, availableBytes: bytes.count) }
        guard version == currentFormatVersion else {
            throw .unsupportedVersion(expected: currentFormatVersion, found: version)
        }
        let crcOffset = fixedBytes + Int(noteLength)
        guard let storedCRC = bytes.bigEndianValue(UInt32.self, at: crcOffset) else {
            throw .truncated(neededBytes: crcOffset + 4, availableBytes: bytes.count)
        }
        let computedCRC = CRC32C.checksum(bytes[0..<crcOffset])
        guard storedCRC == computedCRC else { throw .crcMismatch(stored: storedCRC, computed: computedCRC) }
        guard let note = String(validating: bytes[fixedBytes..<crcOffset], as: UTF8.self) else { throw .noteNotUTF8 }
        let header = LogFileHeader(formatVersion: version, createdUs: createdUs, note: note)
        return (header, crcOffset + 4)
    }

    private init(formatVersion: UInt16, createdUs: Int64, note: String) {
        self.formatVersion = formatVersion
        self.createdUs = createdUs
        self.note = note
    }
}

/// Why a file header could not be built or read.
public enum LogHeaderError: Error, Equatable, Sendable {
    case noteTooLong(bytes: Int, maxBytes: Int)
    case truncated(neededBytes: Int, availableBytes: Int)
    case badMagic(found: [UInt8])
    case unsupportedVersion(expected: UInt16, found: UInt16)
    case crcMismatch(stored: UInt32, computed: UInt32)
    case noteNotUTF8
}
