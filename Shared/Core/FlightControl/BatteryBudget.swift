import Clocks
/// Does the battery left cover the way home? Measures the drain (percent per second) over the flight, since the
/// nominal flight time says little about a worn battery or a windy day, and the speed over ground the drone
/// actually makes while it steers. Until enough has been seen it assumes the nominal values.
public struct BatteryBudget: Sendable {
    /// Drain assumed until measured (AR.Drone 2.0: about 12 minutes of flight on a full battery).
    public var assumedDrainPercentPerS: Double
    /// Measure the drain only over at least this long and this many percent (the navdata percent is an integer).
    public var minimumMeasureS: Double = 5
    public var minimumMeasurePercent: Double = 2
    /// Speed-estimate filter time constant, seconds.
    public var speedTimeConstantS: Double = 2

    private var airborneStart: (percent: Double, atUs: Int64)?
    private var latest: (percent: Double, atUs: Int64)?
    /// Low-passed ground speed while the controller steered forward; nil before any.
    public private(set) var measuredSpeedMps: Double?
    private var lastSpeedAtUs: Int64?

    public init(assumedDrainPercentPerS: Double = 100.0 / (12 * 60)) {
        self.assumedDrainPercentPerS = assumedDrainPercentPerS
    }

    /// Landed: the next flight measures afresh (a new battery may be in).
    public mutating func reset() {
        airborneStart = nil
        latest = nil
        measuredSpeedMps = nil
        lastSpeedAtUs = nil
    }

    /// A navdata battery reading while airborne.
    public mutating func observe(percent: Double, at time: MonotonicInstant) {
        let atUs = time.us
        guard percent.isFinite else { return }
        if airborneStart == nil { airborneStart = (percent, atUs) }
        latest = (percent, atUs)
    }

    /// Ground speed while steering forward (hovering would drag the average down).
    public mutating func observeSpeed(mps: Double, at time: MonotonicInstant) {
        let atUs = time.us
        guard mps.isFinite, mps >= 0 else { return }
        defer { lastSpeedAtUs = atUs }
        guard let current = measuredSpeedMps, let last = lastSpeedAtUs, atUs > last else {
            measuredSpeedMps = measuredSpeedMps ?? mps
            return
        }
        let alpha = min(1, Double(atUs - last) / 1e6 / max(speedTimeConstantS, 0.1))
        measuredSpeedMps = current + alpha * (mps - current)
    }

    /// Pauses the speed filter's timing (not steering now).
    public mutating func pauseSpeed() { lastSpeedAtUs = nil }

    public var drainPercentPerS: Double {
        guard let start = airborneStart, let latest else { return assumedDrainPercentPerS }
        let seconds = Double(latest.atUs &- start.atUs) / 1e6
        let dropped = start.percent - latest.percent
        guard seconds >= minimumMeasureS, dropped >= minimumMeasurePercent else { return assumedDrainPercentPerS }
        return max(dropped / seconds, assumedDrainPercentPerS / 4)
    }

    /// Percent the way home costs: flying `distanceM` at the measured speed (else `fallbackSpeedMps`), plus the
    /// hover over home and the descent from `altitudeM`.
    public func percentNeeded(distanceM: Double, fallbackSpeedMps: Double, altitudeM: Double, hoverS: Double,
                              descentMps: Double = 0.5) -> Double {
        let speed = max(measuredSpeedMps ?? fallbackSpeedMps, 0.1)
        let seconds = distanceM / speed + hoverS + max(altitudeM, 0) / descentMps
        return seconds * drainPercentPerS
    }
}
