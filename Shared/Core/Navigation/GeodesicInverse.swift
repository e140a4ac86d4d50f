#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Karney's solution of the inverse geodesic problem on WGS-84 (C. F. F. Karney, "Algorithms for geodesics",
/// J. Geodesy 87, 43–55, 2013), transcribed from GeographicLib's `Geodesic._GenInverse`.
/// Newton's method on the azimuth with a bisection fallback and a hard iteration cap (83), so it terminates
/// and converges for every pair, including nearly antipodal ones where Vincenty's iteration fails.
enum GeodesicInverse {
    typealias S = WGS84Series
    typealias M = GeodesicMath

    struct Result {
        var distanceM: Double
        /// GeographicLib azimuths, (−180, 180].
        var azi1Deg: Double
        var azi2Deg: Double
    }

    /// Lengths s12/b and m12/b (reduced length) along the geodesic for the arc sig12.
    static func lengths(eps: Double, sig12: Double, ssig1: Double, csig1: Double, dn1: Double,
                                ssig2: Double, csig2: Double, dn2: Double) -> (s12b: Double, m12b: Double) {
        let c1a = S.c1(eps), c2a = S.c2(eps)
        let a1m1 = S.a1m1(eps), a2m1 = S.a2m1(eps)
        let m0x = a1m1 - a2m1
        let a1 = 1 + a1m1, a2 = 1 + a2m1
        let b1 = S.sinSeries(ssig2, csig2, c1a) - S.sinSeries(ssig1, csig1, c1a)
        let b2 = S.sinSeries(ssig2, csig2, c2a) - S.sinSeries(ssig1, csig1, c2a)
        let j12 = m0x * sig12 + (a1 * b1 - a2 * b2)
        let m12b = dn2 * (csig1 * ssig2) - dn1 * (ssig1 * csig2) - csig1 * csig2 * j12
        return (a1 * (sig12 + b1), m12b)
    }

    /// Positive root k of the astroid equation k⁴ + 2k³ − (x² + y² − 1)k² − 2y²k − y² = 0 (Karney 2013,
    /// eq. 55).
    private static func astroid(_ x: Double, _ y: Double) -> Double {
        let p = x * x, q = y * y
        let r = (p + q - 1) / 6
        guard !(q == 0 && r <= 0) else { return 0 }
        let sv = p * q / 4
        let r2 = r * r, r3 = r * r2
        let disc = sv * (sv + 2 * r3)
        var u = r
        if disc >= 0 {
            var t3 = sv + r3
            t3 += t3 < 0 ? -disc.squareRoot() : disc.squareRoot()
            let t = cbrt(t3)
            u += t + (t != 0 ? r2 / t : 0)
        } else {
            let ang = atan2((-disc).squareRoot(), -(sv + r3))
            u += 2 * r * cos(ang / 3)
        }
        let v = (u * u + q).squareRoot()
        let uv = u < 0 ? q / (v - u) : u + v
        let w = (uv - q) / (2 * v)
        return uv / ((uv + w * w).squareRoot() + w)
    }

    struct Start {
        var sig12 = -1.0, salp1 = 0.0, calp1 = 0.0, salp2 = Double.nan, calp2 = Double.nan, dnm = Double.nan
    }

    /// Starting azimuth for Newton's method (exact result for short lines: sig12 ≥ 0).
    static func start(sbet1: Double, cbet1: Double, sbet2: Double, cbet2: Double,
                              lam12: Double, slam12: Double, clam12: Double) -> Start {
        var out = Start()
        let sbet12 = sbet2 * cbet1 - cbet2 * sbet1
        let cbet12 = cbet2 * cbet1 + sbet2 * sbet1
        var sbet12a = sbet2 * cbet1
        sbet12a += cbet2 * sbet1
        let shortline = cbet12 >= 0 && sbet12 < 0.5 && cbet2 * lam12 < 0.5
        var somg12 = slam12, comg12 = clam12
        if shortline {
            var sbetm2 = M.sq(sbet1 + sbet2)
            sbetm2 /= sbetm2 + M.sq(cbet1 + cbet2)
            out.dnm = (1 + S.ep2 * sbetm2).squareRoot()
            let omg12 = lam12 / (S.f1 * out.dnm)
            somg12 = sin(omg12)
            comg12 = cos(omg12)
        }
        var salp1 = cbet2 * somg12
        var calp1 = comg12 >= 0
            ? sbet12 + cbet2 * sbet1 * M.sq(somg12) / (1 + comg12)
            : sbet12a - cbet2 * sbet1 * M.sq(somg12) / (1 - comg12)
        let ssig12 = hypot(salp1, calp1)
        let csig12 = sbet1 * sbet2 + cbet1 * cbet2 * comg12
        if shortline && ssig12 < S.etol2 {
            let salp2 = cbet1 * somg12
            let calp2 = sbet12 - cbet1 * sbet2 * (comg12 >= 0 ? M.sq(somg12) / (1 + comg12) : 1 - comg12)
            (out.salp2, out.calp2) = M.norm(salp2, calp2)
            out.sig12 = atan2(ssig12, csig12)
        } else if abs(S.n) >= 0.1 || csig12 >= 0 || ssig12 >= 6 * abs(S.n) * .pi * M.sq(cbet1) {
            // Zeroth-order spherical approximation is good enough.
        } else {
            // Nearly antipodal: scale to the astroid problem (f > 0 for WGS-84).
            let lam12x = atan2(-slam12, -clam12)
            let k2 = M.sq(sbet1) * S.ep2
            let lamscale = S.f * cbet1 * S.a3(S.eps(k2: k2)) * .pi
            let betscale = lamscale * cbet1
            let x = lam12x / lamscale, y = sbet12a / betscale
            if y > -S.tol1 && x > -1 - S.xthresh {
                salp1 = min(1.0, -x)
                calp1 = -(1 - M.sq(salp1)).squareRoot()
            } else {
                let k = astroid(x, y)
                let omg12a = lamscale * (-x * k / (1 + k))
                somg12 = sin(omg12a)
                comg12 = -cos(omg12a)
                salp1 = cbet2 * somg12
                calp1 = sbet12a - cbet2 * sbet1 * M.sq(somg12) / (1 - comg12)
            }
        }
        if salp1 > 0 {
            (out.salp1, out.calp1) = M.norm(salp1, calp1)
        } else {
            (out.salp1, out.calp1) = (1, 0)
        }
        return out
    }

    struct Lambda {
        var lam12 = 0.0, salp2 = 0.0, calp2 = 0.0, sig12 = 0.0
        var ssig1 = 0.0, csig1 = 0.0, ssig2 = 0.0, csig2 = 0.0, eps = 0.0, dlam12 = Double.nan
    }

    /// The longitude difference reached by the geodesic leaving point 1 with azimuth alp1 when it gets to
    /// latitude bet2, minus the wanted one (the function Newton drives to zero), and its derivative.
    static func lambda12(sbet1: Double, cbet1: Double, dn1: Double, sbet2: Double, cbet2: Double,
                                 dn2: Double, salp1: Double, calp1 calp1In: Double, slam120: Double,
                                 clam120: Double, diffp: Bool) -> Lambda {
        var out = Lambda()
        let calp1 = (sbet1 == 0 && calp1In == 0) ? -S.tiny : calp1In
        let salp0 = salp1 * cbet1
        let calp0 = hypot(calp1, salp1 * sbet1)
        let somg1 = salp0 * sbet1, comg1 = calp1 * cbet1
        (out.ssig1, out.csig1) = M.norm(sbet1, comg1)
        out.salp2 = cbet2 != cbet1 ? salp0 / cbet2 : salp1
        if cbet2 != cbet1 || abs(sbet2) != -sbet1 {
            let term = cbet1 < -sbet1 ? (cbet2 - cbet1) * (cbet1 + cbet2) : (sbet1 - sbet2) * (sbet1 + sbet2)
            out.calp2 = (M.sq(calp1 * cbet1) + term).squareRoot() / cbet2
        } else {
            out.calp2 = abs(calp1)
        }
        let somg2 = salp0 * sbet2, comg2 = out.calp2 * cbet2
        (out.ssig2, out.csig2) = M.norm(sbet2, comg2)
        out.sig12 = atan2(max(0.0, out.csig1 * out.ssig2 - out.ssig1 * out.csig2) + 0.0,
                          out.csig1 * out.csig2 + out.ssig1 * out.ssig2)
        let somg12 = max(0.0, comg1 * somg2 - somg1 * comg2) + 0.0
        let comg12 = comg1 * comg2 + somg1 * somg2
        let eta = atan2(somg12 * clam120 - comg12 * slam120, comg12 * clam120 + somg12 * slam120)
        out.eps = S.eps(k2: M.sq(calp0) * S.ep2)
        let c3a = S.c3(out.eps)
        let b312 = S.sinSeries(out.ssig2, out.csig2, c3a) - S.sinSeries(out.ssig1, out.csig1, c3a)
        out.lam12 = eta - S.f * S.a3(out.eps) * salp0 * (out.sig12 + b312)
        if diffp {
            if out.calp2 == 0 {
                out.dlam12 = -2 * S.f1 * dn1 / sbet1
            } else {
                let l = lengths(eps: out.eps, sig12: out.sig12, ssig1: out.ssig1, csig1: out.csig1, dn1: dn1,
                                ssig2: out.ssig2, csig2: out.csig2, dn2: dn2)
                out.dlam12 = l.m12b * S.f1 / (out.calp2 * cbet2)
            }
        }
        return out
    }
}
