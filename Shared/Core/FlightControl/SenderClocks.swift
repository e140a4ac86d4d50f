import Clocks

/// What each ground sender's own wall clock reads, learned from its beacons: the stamp of its latest beacon plus the
/// board's monotonic time since that beacon arrived. A target or command from the same sender (same host, same
/// clock) can then be aged by its own stamp — a comparison of two stamps written by one clock, never of a remote
/// stamp with the board's clock. It catches what waited in a queue the broker's expiry did not see: e.g. a TCP
/// connection that held it through a short radio cut and delivered it late.
struct SenderClocks: Sendable {
    struct Reading: Sendable {
        var stamp: WallInstant
        var receivedAt: MonotonicInstant
    }

    /// A handful of ground hosts at most; the oldest reading goes first.
    static let capacity = 16
    private(set) var readings: [String: Reading] = [:]

    /// A beacon this far behind the clock its earlier beacons showed is not late but a step of the sender's clock.
    static let stepBack: Duration = .seconds(30)

    /// Keeps the least delayed view of the sender's clock: a beacon that arrives late (held in a queue with the
    /// messages around it) shows an older time than the clock has reached and must not pull it back — else a burst
    /// of late beacons would make the late order in its middle look fresh.
    /// (Wrapping arithmetic on the microseconds: a stamp is whatever the sender wrote.)
    mutating func record(senderId: String, stamp: WallInstant, receivedAt: MonotonicInstant) {
        if let current = readings[senderId] {
            let shownUs = current.stamp.us &+ (receivedAt.us &- current.receivedAt.us)
            let behindUs = shownUs &- stamp.us
            if behindUs > 0, behindUs <= Self.stepBack.us { return }
        } else if readings.count >= Self.capacity,
                  let oldest = readings.min(by: { $0.value.receivedAt < $1.value.receivedAt })?.key {
            readings[oldest] = nil
        }
        readings[senderId] = Reading(stamp: stamp, receivedAt: receivedAt)
    }

    /// How old a message stamped `stamp` by `senderId` is by that sender's clock now; nil without a beacon from it.
    func age(senderId: String, stamp: WallInstant, now: MonotonicInstant) -> Duration? {
        guard let reading = readings[senderId] else { return nil }
        return .microseconds(reading.stamp.us &+ (now.us &- reading.receivedAt.us) &- stamp.us)
    }
}
