#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Karney's solution of the direct geodesic problem on WGS-84, transcribed from GeographicLib's
/// `GeodesicLine` (`_GenPosition` with distance input). Closed form (series), no iteration.
enum GeodesicDirect {
    typealias S = WGS84Series
    typealias M = GeodesicMath

    struct Result {
        var latDeg: Double
        /// [−180, 180].
        var lonDeg: Double
        /// Forward azimuth at the end point, (−180, 180].
        var azi2Deg: Double
    }

    /// The end of the geodesic leaving (lat1, lon1) with azimuth azi1 after s12 metres (negative = backwards).
    /// lat1 must be in [−90, 90] (callers clamp); non-finite input gives NaN output.
    static func solve(lat1: Double, lon1: Double, azi1: Double, s12: Double) -> Result {
        let (salp1, calp1) = M.sincosd(M.angRound(azi1))
        var (sbet1, cbet1) = M.sincosd(M.angRound(lat1))
        (sbet1, cbet1) = M.norm(sbet1 * S.f1, cbet1)
        cbet1 = max(S.tiny, cbet1)
        // alp0: azimuth at the node (equator crossing) of the great ellipse.
        let salp0 = salp1 * cbet1
        let calp0 = hypot(calp1, salp1 * sbet1)
        let somg1 = salp0 * sbet1
        let comg1 = (sbet1 != 0 || calp1 != 0) ? cbet1 * calp1 : 1
        let (ssig1, csig1) = M.norm(sbet1, comg1)
        let k2 = M.sq(calp0) * S.ep2
        let eps = S.eps(k2: k2)

        let a1m1 = S.a1m1(eps)
        let c1a = S.c1(eps), c1pa = S.c1p(eps), c3a = S.c3(eps)
        let b11 = S.sinSeries(ssig1, csig1, c1a)
        let stau1 = ssig1 * cos(b11) + csig1 * sin(b11)
        let ctau1 = csig1 * cos(b11) - ssig1 * sin(b11)
        let a3c = -S.f * salp0 * S.a3(eps)
        let b31 = S.sinSeries(ssig1, csig1, c3a)

        // Distance -> arc length sigma via the reverted series C1'.
        var tau12 = s12 / (S.b * (1 + a1m1))
        if !tau12.isFinite { tau12 = .nan }
        let stau12 = sin(tau12), ctau12 = cos(tau12)
        let b12 = -S.sinSeries(stau1 * ctau12 + ctau1 * stau12, ctau1 * ctau12 - stau1 * stau12, c1pa)
        let sig12 = tau12 - (b12 - b11)
        let ssig12 = sin(sig12), csig12 = cos(sig12)
        let ssig2 = ssig1 * csig12 + csig1 * ssig12
        var csig2 = csig1 * csig12 - ssig1 * ssig12

        let sbet2 = calp0 * ssig2
        var cbet2 = hypot(salp0, calp0 * csig2)
        if cbet2 == 0 {
            // Landed exactly on a pole.
            cbet2 = S.tiny
            csig2 = S.tiny
        }
        let salp2 = salp0, calp2 = calp0 * csig2

        let somg2 = salp0 * ssig2, comg2 = csig2
        let omg12 = atan2(somg2 * comg1 - comg2 * somg1, comg2 * comg1 + somg2 * somg1)
        let lam12 = omg12 + a3c * (sig12 + (S.sinSeries(ssig2, csig2, c3a) - b31))
        let lon12 = lam12 * M.radian
        let lon2 = M.angNormalize(M.angNormalize(lon1) + M.angNormalize(lon12))
        let lat2 = M.atan2d(sbet2, S.f1 * cbet2)
        return Result(latDeg: lat2, lonDeg: lon2, azi2Deg: M.atan2d(salp2, calp2))
    }
}
