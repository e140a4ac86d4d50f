import QuadProtocol

/// A ground logger's question to the board's logger: "send me these records of your log" (PROTOCOL.md, "Log sync").
/// Published on `quad/<id>/log/sync/request`; the answer goes to `quad/<id>/log/sync/response/<requester>`.
///
///     offset  size  field (big-endian, like the `.qlog` records the answer carries)
///     0       4     magic FF 4C 53 51 ("\xFF" "LSQ"; 0xFF: never text)
///     4       1     version (1)
///     5       4     request id, u32 (chosen by the requester, echoed in every chunk of the answer)
///     9       1     requester length R (1…64), then R bytes [a-z0-9-]
///     10+R    2     range count N (1…64), then N ranges:
///                     1  topic path length P (1…128), then P bytes: the topic below quad/<id>/ (telemetry/<name>)
///                     4  first sequence, u32 (≥ 1)
///                     4  last sequence, u32 (≥ first)
///                     8  not before, i64 µs: the sender timestamp of the record before the gap
///                     8  not after, i64 µs: the sender timestamp of the record after it (≥ not before)
public struct SyncRequest: Sendable, Equatable {
    public static let magic: [UInt8] = [0xFF, 0x4C, 0x53, 0x51]
    public static let version: UInt8 = 1
    public static let maxRanges = 64
    public static let maxPathBytes = 128

    /// Records of one topic with sequence numbers `first...last` whose sender timestamp lies in
    /// `notBeforeUs...notAfterUs`. The window tells two runs of a restarted publisher apart (both count from 1).
    public struct Range: Sendable, Equatable, Hashable {
        public var path: String
        public var first: UInt32
        public var last: UInt32
        public var notBeforeUs: Int64
        public var notAfterUs: Int64

        public init(path: String, first: UInt32, last: UInt32, notBeforeUs: Int64, notAfterUs: Int64) {
            self.path = path
            self.first = first
            self.last = last
            self.notBeforeUs = notBeforeUs
            self.notAfterUs = notAfterUs
        }

        public func contains(sequence: UInt32, timestampUs: Int64) -> Bool {
            (first...last).contains(sequence) && (notBeforeUs...notAfterUs).contains(timestampUs)
        }
    }

    public var id: UInt32
    public var requester: String
    public var ranges: [Range]

    public init(id: UInt32, requester: String, ranges: [Range]) {
        self.id = id
        self.requester = requester
        self.ranges = ranges
    }

    /// Runs the decoder's checks, so nothing is sent that a board would refuse.
    public func encoded() throws(SyncWireError) -> [UInt8] {
        try Self.validate(requester: requester, ranges: ranges)
        var writer = SyncByteWriter()
        writer.append(Self.magic)
        writer.integer(Self.version)
        writer.integer(id)
        writer.string(requester, length: UInt8.self)
        writer.integer(UInt16(ranges.count))
        for range in ranges {
            writer.string(range.path, length: UInt8.self)
            writer.integer(range.first)
            writer.integer(range.last)
            writer.integer(range.notBeforeUs)
            writer.integer(range.notAfterUs)
        }
        return writer.bytes
    }

    /// Decodes and checks everything: limits, paths (telemetry topics only), non-empty ranges, no trailing bytes.
    public init(decoding payload: [UInt8]) throws(SyncWireError) {
        var reader = SyncByteReader(payload)
        try reader.header(magic: Self.magic, version: Self.version)
        id = try reader.integer(UInt32.self)
        requester = try reader.string(Int(try reader.integer(UInt8.self)), field: "requester")
        let count = Int(try reader.integer(UInt16.self))
        guard (1...Self.maxRanges).contains(count) else {
            throw .outOfRange(field: "range count", expected: "1…\(Self.maxRanges)", got: count)
        }
        var ranges: [Range] = []
        for _ in 0..<count {
            let path = try reader.string(Int(try reader.integer(UInt8.self)), field: "topic path")
            ranges.append(Range(path: path, first: try reader.integer(UInt32.self),
                                last: try reader.integer(UInt32.self),
                                notBeforeUs: try reader.integer(Int64.self),
                                notAfterUs: try reader.integer(Int64.self)))
        }
        guard reader.remaining == 0 else { throw .trailingBytes(reader.remaining) }
        try Self.validate(requester: requester, ranges: ranges)
        self.ranges = ranges
    }

    private static func validate(requester: String, ranges: [Range]) throws(SyncWireError) {
        guard Topics.isValidSyncRequester(requester) else { throw .invalidRequester(requester) }
        guard (1...maxRanges).contains(ranges.count) else {
            throw .outOfRange(field: "range count", expected: "1…\(maxRanges)", got: ranges.count)
        }
        for range in ranges {
            guard (1...maxPathBytes).contains(range.path.utf8.count),
                  Topics.isSyncable("quad/x/\(range.path)")
            else { throw .notSyncable(path: range.path) }
            guard range.first >= 1, range.first <= range.last, range.notBeforeUs <= range.notAfterUs else {
                throw .emptyRange(path: range.path)
            }
        }
    }
}
