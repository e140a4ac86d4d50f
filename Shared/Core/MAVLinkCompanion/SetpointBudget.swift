/// How many setpoints may go to the autopilot, as a token bucket kept in one number (GCRA, virtual scheduling):
/// one send per `intervalUs` on average, up to `burst` back to back. Pure; the caller passes the time.
struct SetpointBudget: Sendable, Equatable {
    let intervalUs: Int64
    let burst: Int
    /// When the bucket would be empty again if sends went on at exactly the average rate.
    private var theoreticalUs: Int64 = .min / 2

    init(intervalUs: Int64, burst: Int) {
        self.intervalUs = max(1, intervalUs)
        self.burst = max(1, burst)
    }

    /// The earliest time a send fits the budget (in the past when one fits now).
    var nextAllowedUs: Int64 { theoreticalUs &- Int64(burst - 1) &* intervalUs }

    func allows(nowUs: Int64) -> Bool { nowUs >= nextAllowedUs }

    /// Every send counts, allowed or not (the stream's own ticks use the budget too, so they cannot add to a burst).
    mutating func spend(nowUs: Int64) {
        theoreticalUs = max(theoreticalUs, nowUs) &+ intervalUs
    }
}
