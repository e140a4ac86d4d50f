import Clocks
import Navigation

/// The numbers a person asks first about a flight.
public struct FlightSummary: Sendable, Equatable {
    /// Along the smoothed track (`TrackSmoother`), in time order, counting a leg once the position has moved
    /// `minimumLegM` from the last counted point.
    public var distanceFlownM: Double
    /// From the first to the last message of the drone in the log, seconds.
    public var durationS: Double
    /// Highest height above the takeoff point reported by the drone; nil without DroneState.
    public var maxHeightM: Float?
    public var minBatteryPercent: UInt8?
    public var fixCount: Int

    /// What the smoothed track still wanders while hovering (a few decimetres) is not flown: 1 m.
    public static let minimumLegM = 1.0

    /// `smoothed`: the track's `smoothedPositions()`, when the caller has them already.
    public init(track: FlightTrack, smoothed: [GeoPoint]? = nil) {
        let positions = smoothed ?? track.smoothedPositions()
        let points = track.points
        let order = points.indices.sorted { (points[$0].receivedAt, $0) < (points[$1].receivedAt, $1) }
        var distance = 0.0
        var anchor: GeoPoint?
        for index in order where positions.indices.contains(index) {
            let position = positions[index]
            guard position.latitudeDeg.isFinite, position.longitudeDeg.isFinite else { continue }
            guard let from = anchor else {
                anchor = position
                continue
            }
            let leg = Geodesy.inverse(from: from, to: position).distanceM
            if leg >= Self.minimumLegM {
                distance += leg
                anchor = position
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
