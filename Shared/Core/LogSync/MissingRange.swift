import Clocks
import FlightLog
import QuadProtocol

/// Records of one topic this logger never received: sequences `first...last` between two records it has. The
/// sender timestamps of those two bound the request (`SyncRequest.Range`); their receive times on this logger say
/// where the recovered records go in the log.
public struct MissingRange: Sendable, Equatable, Hashable {
    public var topic: String
    public var first: UInt32
    public var last: UInt32
    /// Sender stamps (header `timestampUs`) of the records before and after the gap.
    public var notBefore: WallInstant
    public var notAfter: WallInstant
    /// This logger's receive time minus the sender stamp of the record before the gap: maps a recovered record's
    /// sender stamp onto this logger's clock (two hosts, two clocks: no other offset is known).
    public var clockOffset: Duration
    /// This logger's receive times of the records before and after the gap: recovered records are placed between.
    public var earliestReceive: WallInstant
    public var latestReceive: WallInstant

    public init(topic: String, first: UInt32, last: UInt32, notBefore: WallInstant, notAfter: WallInstant,
                clockOffset: Duration = .zero, earliestReceive: WallInstant = WallInstant(us: .min),
                latestReceive: WallInstant = WallInstant(us: .max)) {
        self.topic = topic
        self.first = first
        self.last = last
        self.notBefore = notBefore
        self.notAfter = notAfter
        self.clockOffset = clockOffset
        self.earliestReceive = earliestReceive
        self.latestReceive = max(earliestReceive, latestReceive)
    }

    public var count: Int { Int(last - first) + 1 }
    public var drone: DroneID? { DroneID(topic: topic) }

    /// `telemetry/drone` for `quad/drone1/telemetry/drone`.
    public var path: String {
        let parts = topic.split(separator: "/", maxSplits: 2, omittingEmptySubsequences: false)
        return parts.count == 3 ? String(parts[2]) : topic
    }

    public var requestRange: SyncRequest.Range {
        SyncRequest.Range(path: path, first: first, last: last, notBeforeUs: notBefore.us, notAfterUs: notAfter.us)
    }

    public func contains(topic: String, sequence: UInt32, stamp: WallInstant) -> Bool {
        topic == self.topic && (first...last).contains(sequence) && (notBefore...notAfter).contains(stamp)
    }

    /// What is left after `sequence` arrived: nothing, the range shortened, or two ranges.
    public func removing(_ sequence: UInt32) -> [MissingRange] {
        guard (first...last).contains(sequence) else { return [self] }
        var parts: [MissingRange] = []
        if sequence > first { parts.append(with(first: first, last: sequence - 1)) }
        if sequence < last { parts.append(with(first: sequence + 1, last: last)) }
        return parts
    }

    /// A recovered record's receive time on this logger's clock, inside the gap: at least the receipt of the
    /// record before it and, when the two receipts differ, below the receipt of the record after it. The mapping
    /// overshoots that end whenever this logger saw the outage shorter than the sender's stamps span it (jitter,
    /// a burst sent at once); `RecoveredOrder` puts a recovered record that ties a live one after it, so a record
    /// clamped onto the gap's end would follow it and show as a gap again.
    public func receiveTime(senderStamp: WallInstant) -> WallInstant {
        let (earliestUs, latestUs) = (earliestReceive.us, latestReceive.us)
        let (mapped, overflow) = senderStamp.us.addingReportingOverflow(clockOffset.us)
        let end = latestUs > earliestUs ? latestUs - 1 : latestUs
        return WallInstant(us: min(max(overflow ? earliestUs : mapped, earliestUs), end))
    }

    /// `quad/drone1/telemetry/drone 120–135 (16 records)`.
    public var summary: String {
        "\(topic) \(first == last ? "\(first)" : "\(first)–\(last)") (\(count) record\(count == 1 ? "" : "s"))"
    }

    func with(first: UInt32, last: UInt32) -> MissingRange {
        var copy = self
        copy.first = first
        copy.last = last
        return copy
    }
}

/// Identifies one published message: its topic, the sender's sequence number and stamp. Two records with the
/// same key are the same message (a publisher never reuses a number within one run, and a restarted one has moved
/// on in time).
public struct RecordKey: Hashable, Sendable {
    public let topic: String
    public let sequence: UInt32
    public let stamp: WallInstant

    public init(topic: String, sequence: UInt32, stamp: WallInstant) {
        self.topic = topic
        self.sequence = sequence
        self.stamp = stamp
    }

    /// The key of a binary, sequenced message; nil for text, undecodable headers and sequence 0.
    public init?(_ record: LogRecord) {
        guard let header = try? WireHeader(parsing: record.payload), header.sequence != 0 else { return nil }
        self.init(topic: record.topic, sequence: header.sequence, stamp: WallInstant(us: header.timestampUs))
    }
}
