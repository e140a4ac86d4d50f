import Clocks
import FlightLog
import QuadProtocol

/// Finds the sequence gaps of each telemetry topic in records as they are logged (live, or a whole file at once):
/// every binary payload carries its publisher's sequence number, and on the board each telemetry topic has one
/// publisher. Pure and bounded: one entry per topic, at most `maxTopics`.
public struct GapWatch: Sendable {
    /// A jump larger than this is not asked for: a publisher that restarted with a lost first message, a damaged
    /// counter, or an outage longer than any answer is worth (~1.5 h of 15 Hz telemetry).
    public static let defaultMaxGap: UInt32 = 100_000

    private struct Last: Sendable {
        var sequence: UInt32
        var timestampUs: Int64
        var receiveTimeUs: Int64
    }

    private var last: [String: Last] = [:]
    public let maxTopics: Int
    public let maxGap: UInt32
    /// Gaps too large to ask for, and topics forgotten past `maxTopics`.
    public private(set) var ignoredGaps = 0

    public init(maxTopics: Int = 256, maxGap: UInt32 = GapWatch.defaultMaxGap) {
        self.maxTopics = max(1, maxTopics)
        self.maxGap = max(1, maxGap)
    }

    /// The gaps `record` reveals (usually none). Only non-retained, sequenced binary telemetry counts: a retained
    /// message is an old one the broker kept when this logger subscribed. Recovered records count like live ones
    /// (read a file in `RecoveredOrder`, so a synced log shows no gap).
    public mutating func observe(_ record: LogRecord) -> [MissingRange] {
        guard !record.retain, Topics.isSyncable(record.topic),
              let header = try? WireHeader(parsing: record.payload), header.sequence != 0
        else { return [] }
        let now = Last(sequence: header.sequence, timestampUs: header.timestampUs, receiveTimeUs: record.receiveTimeUs)
        guard let before = last[record.topic] else {
            if last.count >= maxTopics, let any = last.keys.first { last[any] = nil; ignoredGaps += 1 }
            last[record.topic] = now
            return []
        }
        switch SequenceTracker.classify(last: before.sequence, incoming: header.sequence) {
        case .inOrder, .restart, .unsequenced:
            last[record.topic] = now
            return []
        case .duplicateOrOld:
            return []
        case .gap(let missing):
            last[record.topic] = now
            guard missing <= maxGap else {
                ignoredGaps += 1
                return []
            }
            return Self.ranges(topic: record.topic, before: before, after: now)
        }
    }

    /// All gaps of a log, read in `RecoveredOrder.inReceiveOrder`.
    public static func missingRanges(in records: [LogRecord], maxGap: UInt32 = defaultMaxGap) -> [MissingRange] {
        var watch = GapWatch(maxTopics: Int.max, maxGap: maxGap)
        return RecoveredOrder.inReceiveOrder(records).flatMap { watch.observe($0) }
    }

    /// One range, or two when the counter wrapped from UInt32.max to 1 inside the gap.
    private static func ranges(topic: String, before: Last, after: Last) -> [MissingRange] {
        func range(_ first: UInt32, _ last: UInt32) -> MissingRange {
            MissingRange(topic: topic, first: first, last: last,
                         notBefore: WallInstant(us: min(before.timestampUs, after.timestampUs)),
                         notAfter: WallInstant(us: max(before.timestampUs, after.timestampUs)),
                         clockOffset: .microseconds(before.receiveTimeUs &- before.timestampUs),
                         earliestReceive: WallInstant(us: before.receiveTimeUs),
                         latestReceive: WallInstant(us: after.receiveTimeUs))
        }
        if before.sequence < after.sequence { return [range(before.sequence + 1, after.sequence - 1)] }
        var parts: [MissingRange] = []
        if before.sequence < .max { parts.append(range(before.sequence + 1, .max)) }
        if after.sequence > 1 { parts.append(range(1, after.sequence - 1)) }
        return parts
    }
}
