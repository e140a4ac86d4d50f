import Navigation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// East/north metres from an origin (the takeoff point), and the fit of a square metre window into a square
/// pixel box with equal scale on both axes, north up.
struct LocalProjection {
    struct Metres: Equatable {
        var east: Double
        var north: Double
    }

    let origin: GeoPoint
    /// Centre of the metre window and pixels per metre.
    private(set) var centre = Metres(east: 0, north: 0)
    private(set) var pixelsPerMetre = 1.0
    /// Side of the square metre window shown.
    private(set) var spanM = 1.0
    let box: (x: Double, y: Double, size: Double)

    init(origin: GeoPoint, box: (x: Double, y: Double, size: Double)) {
        self.origin = origin
        self.box = box
    }

    func metres(_ point: GeoPoint) -> Metres {
        let plane = LocalTangentPlane(origin: origin).metres(point)
        return Metres(east: plane.eastM, north: plane.northM)
    }

    /// Fits the window around `points` (each with a radius to keep visible), at least `minimumSpanM` wide,
    /// with a margin on every side.
    mutating func fit(_ points: [(Metres, radiusM: Double)], minimumSpanM: Double = 20, margin: Double = 0.12) {
        let finite = points.filter { $0.0.east.isFinite && $0.0.north.isFinite && $0.radiusM.isFinite }
        let minEast = finite.map { $0.0.east - $0.radiusM }.min() ?? 0
        let maxEast = finite.map { $0.0.east + $0.radiusM }.max() ?? 0
        let minNorth = finite.map { $0.0.north - $0.radiusM }.min() ?? 0
        let maxNorth = finite.map { $0.0.north + $0.radiusM }.max() ?? 0
        spanM = max(maxEast - minEast, maxNorth - minNorth, minimumSpanM) * (1 + 2 * margin)
        centre = Metres(east: (minEast + maxEast) / 2, north: (minNorth + maxNorth) / 2)
        pixelsPerMetre = box.size / spanM
    }

    func pixel(_ metres: Metres) -> (x: Double, y: Double) {
        (box.x + box.size / 2 + (metres.east - centre.east) * pixelsPerMetre,
         box.y + box.size / 2 - (metres.north - centre.north) * pixelsPerMetre)
    }

    func pixel(_ point: GeoPoint) -> (x: Double, y: Double) { pixel(metres(point)) }

    /// The visible metre range on each axis.
    var eastRange: ClosedRange<Double> { (centre.east - spanM / 2)...(centre.east + spanM / 2) }
    var northRange: ClosedRange<Double> { (centre.north - spanM / 2)...(centre.north + spanM / 2) }
}

/// Round numbers for grids and scale bars: 1, 2 or 5 times a power of ten.
enum RoundNumber {
    /// The largest round number not above `limit` (limit > 0).
    static func atMost(_ limit: Double) -> Double {
        guard limit.isFinite, limit > 0 else { return 1 }
        let power = pow(10, floor(log10(limit)))
        for factor in [5.0, 2.0, 1.0] where factor * power <= limit { return factor * power }
        return power
    }

    /// The smallest round number not below `limit` (limit > 0).
    static func atLeast(_ limit: Double) -> Double {
        guard limit.isFinite, limit > 0 else { return 1 }
        let power = pow(10, floor(log10(limit)))
        for factor in [1.0, 2.0, 5.0, 10.0] where factor * power >= limit { return factor * power }
        return 10 * power
    }
}
