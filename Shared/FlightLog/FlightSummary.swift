import Clocks
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
        // GPS jitter would add up to hundreds of metres while hovering: count a leg only once the position has
        // moved `minimumLegM` from the last counted point.
        let minimumLegM = 1.0
        var distance = 0.0
        var anchor = track.points.first?.position
        for point in track.points.dropFirst() {
            guard let from = anchor else { break }
            let leg = Geodesy.inverse(from: from, to: point.position).distanceM
            if leg >= minimumLegM {
                distance += leg
                anchor = point.position
            }
        }
        distanceFlownM = distance
        if let first = track.firstReceivedAt, let last = track.lastReceivedAt {
            durationS = Double((last - first).us) / 1_000_000
        } else {
            durationS = 0
        }
        maxHeightM = track.stateSamples.lazy.map(\.heightM).filter(\.isFinite).max()
        minBatteryPercent = track.stateSamples.lazy.map(\.batteryPercent).min()
        fixCount = track.points.count
    }
}
