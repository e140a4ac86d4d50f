/// What each ground sender's own wall clock reads, learned from its beacons: the stamp of its latest beacon plus the
/// board's monotonic time since that beacon arrived. A target or command from the same sender (same host, same
/// clock) can then be aged by its own stamp — a comparison of two stamps written by one clock, never of a remote
/// stamp with the board's clock. It catches what waited in a queue the broker's expiry did not see: e.g. a TCP
/// connection that held it through a short radio cut and delivered it late.
struct SenderClocks: Sendable {
    struct Reading: Sendable {
        var stampUs: Int64
        var receivedAtUs: Int64
    }

    /// A handful of ground hosts at most; the oldest reading goes first.
    static let capacity = 16
    private(set) var readings: [String: Reading] = [:]

    /// A beacon this far behind the clock its earlier beacons showed is not late but a step of the sender's clock.
    static let stepBackUs: Int64 = 30_000_000

    /// Keeps the least delayed view of the sender's clock: a beacon that arrives late (held in a queue with the
    /// messages around it) shows an older time than the clock has reached and must not pull it back — else a burst
    /// of late beacons would make the late order in its middle look fresh.
    mutating func record(senderId: String, stampUs: Int64, receivedAtUs: Int64) {
        if let current = readings[senderId] {
            let shownUs = current.stampUs &+ (receivedAtUs &- current.receivedAtUs)
            let behindUs = shownUs &- stampUs
            if behindUs > 0, behindUs <= Self.stepBackUs { return }
        } else if readings.count >= Self.capacity,
                  let oldest = readings.min(by: { $0.value.receivedAtUs < $1.value.receivedAtUs })?.key {
            readings[oldest] = nil
        }
        readings[senderId] = Reading(stampUs: stampUs, receivedAtUs: receivedAtUs)
    }

    /// How old a message stamped `stampUs` by `senderId` is by that sender's clock now; nil without a beacon from it.
    func ageUs(senderId: String, stampUs: Int64, nowUs: Int64) -> Int64? {
        guard let reading = readings[senderId] else { return nil }
        return reading.stampUs &+ (nowUs &- reading.receivedAtUs) &- stampUs
    }
}
