import Clocks
/// Does the battery left cover the way home? Measures the drain (percent per second) over the flight, since the
/// nominal flight time says little about a worn battery or a windy day, and the speed over ground the drone
/// actually makes while it steers. Until enough has been seen it assumes the nominal values.
public struct BatteryBudget: Sendable {
    /// Drain assumed until measured (AR.Drone 2.0: about 12 minutes of flight on a full battery).
    public var assumedDrainPercentPerS: Double
    /// Measure the drain only over at least this long and this many percent (the navdata percent is an integer).
    public var minimumMeasure: Duration = .seconds(5)
    public var minimumMeasurePercent: Double = 2
    /// Speed-estimate filter time constant.
    public var speedTimeConstant: Duration = .seconds(2)

    private var airborneStart: (percent: Double, at: MonotonicInstant)?
    private var latest: (percent: Double, at: MonotonicInstant)?
    /// Low-passed ground speed while the controller steered forward; nil before any.
    public private(set) var measuredSpeedMps: Double?
    private var lastSpeedAt: MonotonicInstant?

    public init(assumedDrainPercentPerS: Double = 100.0 / (12 * 60)) {
        self.assumedDrainPercentPerS = assumedDrainPercentPerS
    }

    /// Landed: the next flight measures afresh (a new battery may be in).
    public mutating func reset() {
        airborneStart = nil
        latest = nil
        measuredSpeedMps = nil
        lastSpeedAt = nil
    }

    /// A navdata battery reading while airborne.
    public mutating func observe(percent: Double, at time: MonotonicInstant) {
        guard percent.isFinite else { return }
        if airborneStart == nil { airborneStart = (percent, time) }
        latest = (percent, time)
    }

    /// Ground speed while steering forward (hovering would drag the average down).
    public mutating func observeSpeed(mps: Double, at time: MonotonicInstant) {
        guard mps.isFinite, mps >= 0 else { return }
        defer { lastSpeedAt = time }
        guard let current = measuredSpeedMps, let last = lastSpeedAt, time > last else {
            measuredSpeedMps = measuredSpeedMps ?? mps
            return
        }
        let alpha = min(1, (time - last).inSeconds / max(speedTimeConstant.inSeconds, 0.1))
        measuredSpeedMps = current + alpha * (mps - current)
    }

    /// Pauses the speed filter's timing (not steering now).
    public mutating func pauseSpeed() { lastSpeedAt = nil }

    public var drainPercentPerS: Double {
        guard let start = airborneStart, let latest else { return assumedDrainPercentPerS }
        let seconds = (latest.at - start.at).inSeconds
        let dropped = start.percent - latest.percent
        guard seconds >= minimumMeasure.inSeconds, dropped >= minimumMeasurePercent else {
            return assumedDrainPercentPerS
        }
        return max(dropped / seconds, assumedDrainPercentPerS / 4)
    }

    /// Percent `seconds` of flight cost at the measured drain (the return's cost: `returnCostPercent`).
    public func percent(forSeconds seconds: Double) -> Double {
        seconds * drainPercentPerS
    }
}
