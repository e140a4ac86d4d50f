import FlightLog

/// One chunk of a board logger's answer to a `SyncRequest` (PROTOCOL.md, "Log sync"), published on
/// `quad/<id>/log/sync/response/<requester>`.
///
///     offset  size  field (big-endian)
///     0       4     magic FF 4C 53 52 ("\xFF" "LSR")
///     4       1     version (1)
///     5       4     request id, u32 (as in the request)
///     9       1     status: 0 complete, 1 truncated (more records matched than one answer carries: ask again
///                   for what is still missing), 2 refused (the note says why; no records)
///     10      2     chunk index, u16 (0…count−1)
///     12      2     chunk count, u16 (≥ 1; the same in every chunk of an answer)
///     14      2     record count n, u16 (≤ 1024)
///     16      2     note length L (≤ 512), then L bytes UTF-8 (a refusal's reason; empty otherwise)
///     18+L    …     n `.qlog` records (Shared/Core/FlightLog/FORMAT.md: sync marker, length, body, CRC-32C), to
///                   the end
public struct SyncResponse: Sendable, Equatable {
    public static let magic: [UInt8] = [0xFF, 0x4C, 0x53, 0x52]
    public static let version: UInt8 = 1
    public static let maxRecords = 1024
    public static let maxNoteBytes = 512

    public enum Status: UInt8, Sendable, Equatable {
        case complete = 0
        case truncated = 1
        case refused = 2
    }

    public var requestId: UInt32
    public var status: Status
    public var chunkIndex: UInt16
    public var chunkCount: UInt16
    public var note: String
    public var records: [LogRecord]

    public init(requestId: UInt32, status: Status, chunkIndex: UInt16 = 0, chunkCount: UInt16 = 1, note: String = "",
                records: [LogRecord] = []) {
        self.requestId = requestId
        self.status = status
        self.chunkIndex = chunkIndex
        self.chunkCount = chunkCount
        self.note = note
        self.records = records
    }

    /// A refusal cut to the note limit (on a character boundary).
    public static func refusal(requestId: UInt32, reason: String) -> SyncResponse {
        var note = ""
        for character in reason where note.utf8.count + character.utf8.count <= maxNoteBytes { note.append(character) }
        return SyncResponse(requestId: requestId, status: .refused, note: note)
    }

    public func encoded() -> [UInt8] {
        var writer = SyncByteWriter()
        writer.append(Self.magic)
        writer.integer(Self.version)
        writer.integer(requestId)
        writer.integer(status.rawValue)
        writer.integer(chunkIndex)
        writer.integer(chunkCount)
        writer.integer(UInt16(truncatingIfNeeded: records.count))
        writer.string(note, length: UInt16.self)
        for record in records { writer.append(record.encoded()) }
        return writer.bytes
    }

    /// Decodes and checks the framing: limits, chunk numbering, every record intact (CRC) and as many as announced.
    /// What the records contain is checked by the `SyncSession` that asked for them.
    public init(decoding payload: [UInt8]) throws(SyncWireError) {
        var reader = SyncByteReader(payload)
        try reader.header(magic: Self.magic, version: Self.version)
        requestId = try reader.integer(UInt32.self)
        let statusByte = try reader.integer(UInt8.self)
        guard let status = Status(
            rawValue: statusByte) else { throw .invalidValue(field: "status", got: Int(statusByte)) }
        self.status = status
        chunkIndex = try reader.integer(UInt16.self)
        chunkCount = try reader.integer(UInt16.self)
        guard chunkCount >= 1, chunkIndex < chunkCount else {
            throw .outOfRange(field: "chunk index", expected: "0…chunk count − 1 (\(chunkCount))",
                got: Int(chunkIndex))
        }
        let count = Int(try reader.integer(UInt16.self))
        guard count <= Self.maxRecords else {
            throw .outOfRange(field: "record count", expected: "0…\(Self.maxRecords)", got: count)
        }
        let noteLength = Int(try reader.integer(UInt16.self))
        guard noteLength <= Self.maxNoteBytes else {
            throw .outOfRange(field: "note length", expected: "0…\(Self.maxNoteBytes)", got: noteLength)
        }
        note = try reader.string(noteLength, field: "note")
        let read = LogReader(recordBytes: Array(reader.rest())).readAll()
        guard read.problems.isEmpty, read.records.count == count else {
            throw .damagedRecords(expected: count, got: read.records.count)
        }
        if status == .refused, count > 0 { throw .outOfRange(field: "records in a refusal", expected: "0", got: count) }
        records = read.records
    }
}
