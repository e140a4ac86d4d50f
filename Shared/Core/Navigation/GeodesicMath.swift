#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Angle helpers of GeographicLib's `Math` class (Karney), needed so that the geodesic code keeps full
/// precision: sines and cosines of exact multiples of 90° come out exact, differences of longitudes are
/// computed error-free, and tiny angles are rounded so they cannot produce denormals.
enum GeodesicMath {
    static let degree = Double.pi / 180
    static let radian = 180 / Double.pi

    static func sq(_ x: Double) -> Double { x * x }

    /// Normalises the two-vector (x, y) to unit length.
    static func norm(_ x: Double, _ y: Double) -> (Double, Double) {
        let r = hypot(x, y)
        return (x / r, y / r)
    }

    /// Error-free sum: s = round(u + v), t = the exact rounding error.
    static func sum(_ u: Double, _ v: Double) -> (s: Double, t: Double) {
        let s = u + v
        var up = s - v
        var vpp = s - up
        up -= u
        vpp -= v
        let t = s == 0 ? s : 0.0 - (up + vpp)
        return (s, t)
    }

    /// Horner evaluation of the polynomial of degree `degree` whose coefficients start at `p[start]`.
    static func polyval(_ degree: Int, _ p: [Double], _ start: Int, _ x: Double) -> Double {
        guard degree >= 0 else { return 0 }
        var y = p[start]
        var i = start
        for _ in 0..<degree {
            i += 1
            y = y * x + p[i]
        }
        return y
    }

    /// Rounds an angle so that values below 1/16 lose their low bits (keeps tiny angles from underflowing).
    static func angRound(_ x: Double) -> Double {
        let z = 1.0 / 16
        var y = abs(x)
        if y < z { y = z - (z - y) }
        return copysign(y, x)
    }

    /// Reduces an angle to [−180, 180].
    static func angNormalize(_ x: Double) -> Double {
        guard x.isFinite else { return .nan }
        let y = x.remainder(dividingBy: 360)
        return abs(y) == 180 ? copysign(180, x) : y
    }

    /// y − x reduced to [−180, 180], as an error-free pair (d, e): the difference is d + e.
    static func angDiff(_ x: Double, _ y: Double) -> (d: Double, e: Double) {
        guard x.isFinite, y.isFinite else { return (.nan, .nan) }
        var (d, t) = sum((-x).remainder(dividingBy: 360), y.remainder(dividingBy: 360))
        (d, t) = sum(d.remainder(dividingBy: 360), t)
        if d == 0 || abs(d) == 180 {
            d = copysign(d, t == 0 ? y - x : -t)
        }
        return (d, t)
    }

    /// sin and cos of x degrees, exact for multiples of 90°.
    static func sincosd(_ x: Double) -> (sin: Double, cos: Double) {
        guard x.isFinite else { return (.nan, .nan) }
        var r = x.truncatingRemainder(dividingBy: 360)
        let q = Int((r / 90).rounded(.toNearestOrEven))
        r -= 90 * Double(q)
        return quadrant(sin(r * degree), cos(r * degree), q, sign: x)
    }

    /// sin and cos of (x + t) degrees for x in [−180, 180] and a small correction t.
    static func sincosde(_ x: Double, _ t: Double) -> (sin: Double, cos: Double) {
        let q = x.isFinite ? Int((x / 90).rounded(.toNearestOrEven)) : 0
        let r = angRound(x - 90 * Double(q) + t) * degree
        return quadrant(sin(r), cos(r), q, sign: x)
    }

    private static func quadrant(_ s0: Double, _ c0: Double, _ q: Int, sign x: Double) -> (sin: Double, cos: Double) {
        var (s, c) = (s0, c0)
        switch ((q % 4) + 4) % 4 {
        case 1: (s, c) = (c, -s)
        case 2: (s, c) = (-s, -c)
        case 3: (s, c) = (-c, s)
        default: break
        }
        c += 0.0
        if s == 0 { s = copysign(s, x) }
        return (s, c)
    }

    /// atan2(y, x) in degrees, (−180, 180], exact for the axis directions.
    static func atan2d(_ y0: Double, _ x0: Double) -> Double {
        var (x, y) = (x0, y0)
        var q = 0
        if abs(y) > abs(x) {
            q = 2
            (x, y) = (y, x)
        }
        if x < 0 {
            q += 1
            x = -x
        }
        let ang = atan2(y, x) * radian
        switch q {
        case 1: return copysign(180, y) - ang
        case 2: return 90 - ang
        case 3: return -90 + ang
        default: return ang
        }
    }
}
