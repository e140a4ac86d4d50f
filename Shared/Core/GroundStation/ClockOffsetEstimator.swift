import Clocks

/// How far the board's wall clock is from this laptop's, estimated from telemetry stamps: each message carries the
/// board's send time; `stamp − local receipt time` is the offset minus the one-way delay, so the largest recent
/// value (the least-delayed message) is the best estimate. For display and logs only: no decision may depend on
/// it (safety uses receive times on the deciding host's monotonic clock).
public struct ClockOffsetEstimator: Sendable, Equatable {
    /// Beyond this (either way) the status screen warns: logs and exports from the two hosts will not line up.
    public static let warnAbove: Duration = .seconds(1)

    /// How many recent samples the estimate looks at (telemetry comes at ~15/s: a few seconds' worth).
    public let capacity: Int
    private var samplesUs: [Int64] = []
    private var next = 0

    public init(capacity: Int = 64) {
        self.capacity = max(1, capacity)
    }

    /// A telemetry message stamped `remoteStamp` by the board arrived here at `localReceipt` (this host's wall
    /// clock: the two are compared, so both are wall stamps).
    public mutating func observe(remoteStamp: WallInstant, localReceipt: WallInstant) {
        // Stamps are untrusted input: a garbage stamp must not trap.
        let (sample, overflow) = remoteStamp.us.subtractingReportingOverflow(localReceipt.us)
        guard !overflow, remoteStamp.us > 0 else { return }
        if samplesUs.count < capacity {
            samplesUs.append(sample)
        } else {
            samplesUs[next] = sample
        }
        next = (next + 1) % capacity
    }

    /// Board clock minus laptop clock; positive = the board is ahead. Nil before any sample.
    public var offset: Duration? { samplesUs.max().map(Duration.microseconds) }

    /// True when the estimate is farther than `warnAbove` from zero.
    public var exceedsWarning: Bool { offset.map(Self.exceedsWarning) ?? false }

    /// True when `offset` is farther than `warnAbove` from zero.
    public static func exceedsWarning(_ offset: Duration) -> Bool { offset > warnAbove || .zero - offset > warnAbove }
}
