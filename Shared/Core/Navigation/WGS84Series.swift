#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The WGS-84 ellipsoid and the order-6 series of Karney's geodesic algorithm (coefficients transcribed from
/// GeographicLib, MIT licence, © Charles Karney). Everything here is an immutable constant or a pure function.
enum WGS84Series {
    static let a = 6_378_137.0
    static let f = 1 / 298.257_223_563
    static let f1 = 1 - f
    static let e2 = f * (2 - f)
    static let ep2 = e2 / (f1 * f1)
    static let n = f / (2 - f)
    static let b = a * f1
    static let order = 6

    static let tiny = Double.leastNormalMagnitude.squareRoot()
    static let tol0 = Double.ulpOfOne
    static let tol1 = 200 * tol0
    static let tol2 = tol0.squareRoot()
    static let tolb = tol0
    static let xthresh = 1000 * tol2
    static let etol2 = 0.1 * tol2 / (max(0.001, abs(f)) * min(1.0, 1 - f / 2) / 2).squareRoot()
    /// Newton iterations before falling back to bisection, and the hard cap on all iterations.
    static let maxit1 = 20
    static let maxit2 = maxit1 + Double.significandBitCount + 1 + 10

    /// Clenshaw summation of sum(c[l] * sin(2 l x)) for l = 1 ..< c.count (c[0] unused).
    static func sinSeries(_ sinx: Double, _ cosx: Double, _ c: [Double]) -> Double {
        var k = c.count
        var n = k - 1
        let ar = 2 * (cosx - sinx) * (cosx + sinx)
        var y0 = 0.0, y1 = 0.0
        if n & 1 == 1 {
            k -= 1
            y0 = c[k]
        }
        n /= 2
        while n > 0 {
            n -= 1
            k -= 1
            y1 = ar * y0 - y1 + c[k]
            k -= 1
            y0 = ar * y1 - y0 + c[k]
        }
        return 2 * sinx * cosx * y0
    }

    /// Evaluates the packed coefficient table `coeff` into `count` series terms c[1...count] (c[0] = 0).
    private static func series(_ eps: Double, _ coeff: [Double]) -> [Double] {
        var c = [Double](repeating: 0, count: order + 1)
        let eps2 = eps * eps
        var d = eps
        var o = 0
        for l in 1...order {
            let m = (order - l) / 2
            c[l] = d * GeodesicMath.polyval(m, coeff, o, eps2) / coeff[o + m + 1]
            o += m + 2
            d *= eps
        }
        return c
    }

    static func a1m1(_ eps: Double) -> Double {
        let coeff: [Double] = [1, 4, 64, 0, 256]
        let t = GeodesicMath.polyval(order / 2, coeff, 0, eps * eps) / coeff[order / 2 + 1]
        return (t + eps) / (1 - eps)
    }

    static func c1(_ eps: Double) -> [Double] {
        series(eps, [-1, 6, -16, 32, -9, 64, -128, 2048, 9, -16, 768, 3, -5, 512, -7, 1280, -7, 2048])
    }

    static func c1p(_ eps: Double) -> [Double] {
        series(eps, [205, -432, 768, 1536, 4005, -4736, 3840, 12288, -225, 116, 384, -7173, 2695, 7680,
                     3467, 7680, 38081, 61440])
    }

    static func a2m1(_ eps: Double) -> Double {
        let coeff: [Double] = [-11, -28, -192, 0, 256]
        let t = GeodesicMath.polyval(order / 2, coeff, 0, eps * eps) / coeff[order / 2 + 1]
        return (t - eps) / (1 + eps)
    }

    static func c2(_ eps: Double) -> [Double] {
        series(eps, [1, 2, 16, 32, 35, 64, 384, 2048, 15, 80, 768, 7, 35, 512, 63, 1280, 77, 2048])
    }

    /// Coefficients of A3 as a polynomial in eps (depend on n only).
    static let a3x: [Double] = {
        let coeff: [Double] = [-3, 128, -2, -3, 64, -1, -3, -1, 16, 3, -1, -2, 8, 1, -1, 2, 1, 1]
        var x: [Double] = []
        var o = 0
        for j in stride(from: order - 1, through: 0, by: -1) {
            let m = min(order - j - 1, j)
            x.append(GeodesicMath.polyval(m, coeff, o, n) / coeff[o + m + 1])
            o += m + 2
        }
        return x
    }()

    /// Coefficients of C3[l] as polynomials in eps (depend on n only).
    static let c3x: [Double] = {
        let coeff: [Double] = [
            3, 128, 2, 5, 128, -1, 3, 3, 64, -1, 0, 1, 8, -1, 1, 4,
            5, 256, 1, 3, 128, -3, -2, 3, 64, 1, -3, 2, 32,
            7, 512, -10, 9, 384, 5, -9, 5, 192,
            7, 512, -14, 7, 512,
            21, 2560,
        ]
        var x: [Double] = []
        var o = 0
        for l in 1..<order {
            for j in stride(from: order - 1, through: l, by: -1) {
                let m = min(order - j - 1, j)
                x.append(GeodesicMath.polyval(m, coeff, o, n) / coeff[o + m + 1])
                o += m + 2
            }
        }
        return x
    }()

    static func a3(_ eps: Double) -> Double {
        GeodesicMath.polyval(order - 1, a3x, 0, eps)
    }

    /// C3[1 ..< order]; c[0] unused.
    static func c3(_ eps: Double) -> [Double] {
        var c = [Double](repeating: 0, count: order)
        var mult = 1.0
        var o = 0
        for l in 1..<order {
            let m = order - l - 1
            mult *= eps
            c[l] = mult * GeodesicMath.polyval(m, c3x, o, eps)
            o += m + 1
        }
        return c
    }

    /// The expansion parameter eps for k² = ep2 · cos²(alpha0)
    static func eps(k2: Double) -> Double {
        k2 / (2 * (1 + (1 + k2).squareRoot()) + k2)
    }
}
