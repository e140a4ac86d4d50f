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

    mutating func record(senderId: String, stampUs: Int64, receivedAtUs: Int64) {
        if readings[senderId] == nil, readings.count >= Self.capacity,
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
