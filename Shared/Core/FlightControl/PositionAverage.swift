import Clocks
import Navigation

/// The mean of the distinct GPS fixes of the last `window`: where the drone stands, with the noise averaged out.
/// Home is set from it at takeoff (one fix is off by the receiver's noise — 1.5 m in drone-sim by default — and a
/// return then lands that far from where the drone took off). Pure; times are the caller's monotonic clock.
public struct PositionAverage: Sendable, Equatable {
    public var window: Duration
    private var samples: [(at: MonotonicInstant, point: GeoPoint)] = []

    public init(window: Duration) {
        self.window = window
    }

    public static func == (a: PositionAverage, b: PositionAverage) -> Bool {
        a.window == b.window && a.samples.map(\.at) == b.samples.map(\.at)
            && a.samples.map(\.point) == b.samples.map(\.point)
    }

    public mutating func observe(_ point: GeoPoint, at time: MonotonicInstant) {
        samples.removeAll { time - $0.at > window }
        if samples.last?.point == point { return }
        samples.append((time, point))
    }

    public mutating func reset() { samples.removeAll() }

    /// The mean position, or nil without fixes: a plain mean of the latitudes (the fixes are metres apart, far from
    /// the poles), and of the longitudes as offsets from the first fix's, so fixes either side of the antimeridian
    /// (179.99999 and -179.99999) average to it, not to 0.
    public var mean: GeoPoint? {
        guard let first = samples.first?.point else { return nil }
        let count = Double(samples.count)
        let offsetDeg = samples.reduce(0) { $0 + Geodesy.wrapDeg180($1.point.longitudeDeg - first.longitudeDeg) }
        return GeoPoint(latitudeDeg: samples.reduce(0) { $0 + $1.point.latitudeDeg } / count,
                        longitudeDeg: Geodesy.wrapDeg180(first.longitudeDeg + offsetDeg / count))
    }
}
