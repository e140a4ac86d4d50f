import Clocks
/// Watches whether a manoeuvre (return home, fly to a target) actually brings the drone closer. In a wind
/// stronger than the drone, steering toward a point can carry it away faster than hovering would (the drone's
/// own position hold drifts far less), so a manoeuvre that keeps losing ground must be abandoned.
///
/// Losing ground = the distance stays more than `marginM` above the best distance seen since the manoeuvre
/// started, for `timeout` without a break. The margin keeps GPS jitter and the turn toward the goal (the drone
/// drifts while it yaws) from counting.
public struct ProgressWatch: Sendable, Equatable {
    public var marginM: Double
    public var timeout: Duration

    /// Closest the drone has been to the goal since `reset`.
    public private(set) var bestDistanceM: Double = .infinity
    /// When the distance last rose beyond best + margin (nil while within it).
    private var losingSince: MonotonicInstant?

    public init(marginM: Double, timeout: Duration) {
        self.marginM = marginM
        self.timeout = timeout
    }

    /// Starts watching a new manoeuvre.
    public mutating func reset() {
        bestDistanceM = .infinity
        losingSince = nil
    }

    /// Records a distance to the goal measured at `time`; true once the manoeuvre has lost ground for the timeout.
    @discardableResult
    public mutating func observe(distanceM: Double, at time: MonotonicInstant) -> Bool {
        guard distanceM.isFinite else { return false }
        if distanceM < bestDistanceM { bestDistanceM = distanceM }
        guard distanceM > bestDistanceM + marginM else {
            losingSince = nil
            return false
        }
        let since = losingSince ?? time
        losingSince = since
        return time - since >= timeout
    }
}
