import Navigation

/// The numbers a person asks first about a flight.
public struct FlightSummary: Sendable, Equatable {
    /// Sum of the great-circle steps between consecutive fixes.
    public var distanceFlownM: Double
    /// From the first to the last message of the drone in the log, seconds.
    public var durationS: Double
    /// Highest height above the takeoff point reported by the drone; nil without DroneState.
    public var maxHeightM: Float?
    public var minBatteryPercent: UInt8?
    public var fixCount: Int

    public init(track: FlightTrack) {
        var distance = 0.0
        for (previous, next) in zip(track.points, track.points.dropFirst()) {
            distance += Geodesy.inverse(from: previous.position, to: next.position).distanceM
        }
        distanceFlownM = distance
        if let first = track.firstReceiveTimeUs, let last = track.lastReceiveTimeUs {
            durationS = Double(last &- first) / 1_000_000
        } else {
            durationS = 0
        }
        maxHeightM = track.stateSamples.lazy.map(\.heightM).filter(\.isFinite).max()
        minBatteryPercent = track.stateSamples.lazy.map(\.batteryPercent).min()
        fixCount = track.points.count
    }
}
