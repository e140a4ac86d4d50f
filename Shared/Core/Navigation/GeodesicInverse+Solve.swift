#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension GeodesicInverse {
    /// Distance and azimuths between two points. Latitudes must be in [−90, 90] (callers clamp);
    /// non-finite input gives NaN output.
    static func solve(lat1 lat1In: Double, lon1: Double, lat2 lat2In: Double, lon2: Double) -> Result {
        var (lon12, lon12s) = M.angDiff(lon1, lon2)
        // Make longitude difference positive.
        var lonsign = copysign(1.0, lon12)
        lon12 *= lonsign
        lon12s *= lonsign
        let lam12 = lon12 * M.degree
        let (slam12, clam12) = M.sincosde(lon12, lon12s)
        lon12s = (180 - lon12) - lon12s  // the supplementary longitude difference

        var lat1 = M.angRound(lat1In), lat2 = M.angRound(lat2In)
        // Swap points so that the first has the larger |latitude|, then make it ≤ 0.
        let swapp: Double = abs(lat1) < abs(lat2) || lat2.isNaN ? -1 : 1
        if swapp < 0 {
            lonsign *= -1
            swap(&lat1, &lat2)
        }
        let latsign = copysign(1.0, -lat1)
        lat1 *= latsign
        lat2 *= latsign

        var (sbet1, cbet1) = M.sincosd(lat1)
        (sbet1, cbet1) = M.norm(sbet1 * S.f1, cbet1)
        cbet1 = max(S.tiny, cbet1)
        var (sbet2, cbet2) = M.sincosd(lat2)
        (sbet2, cbet2) = M.norm(sbet2 * S.f1, cbet2)
        cbet2 = max(S.tiny, cbet2)
        // Keep the symmetric cases exactly symmetric.
        if cbet1 < -sbet1 {
            if cbet2 == cbet1 { sbet2 = copysign(sbet1, sbet2) }
        } else if abs(sbet2) == -sbet1 {
            cbet2 = cbet1
        }
        let dn1 = (1 + S.ep2 * M.sq(sbet1)).squareRoot()
        let dn2 = (1 + S.ep2 * M.sq(sbet2)).squareRoot()

        var salp1 = 0.0, calp1 = 0.0, salp2 = 0.0, calp2 = 0.0, s12x = Double.nan

        var meridian = lat1 == -90 || slam12 == 0
        if meridian {
            // Along a meridian (or from a pole): the azimuths are known, only the length is needed.
            calp1 = clam12
            salp1 = slam12
            calp2 = 1
            salp2 = 0
            let ssig1 = sbet1, csig1 = calp1 * cbet1
            let ssig2 = sbet2, csig2 = calp2 * cbet2
            var sig12 = atan2(max(0.0, csig1 * ssig2 - ssig1 * csig2) + 0.0, csig1 * csig2 + ssig1 * ssig2)
            var (s12b, m12b) = lengths(eps: S.n, sig12: sig12, ssig1: ssig1, csig1: csig1, dn1: dn1,
                                       ssig2: ssig2, csig2: csig2, dn2: dn2)
            if sig12 < S.tol2 || m12b >= 0 {
                if sig12 < 3 * S.tiny || (sig12 < S.tol0 && (s12b < 0 || m12b < 0)) {
                    sig12 = 0
                    m12b = 0
                    s12b = 0
                }
                s12x = s12b * S.b
            } else {
                meridian = false  // the meridian is not the shortest path (m12 < 0: past a conjugate point)
            }
        }

        if !meridian && sbet1 == 0 && lon12s >= S.f * 180 {
            // Along the equator (only while it is the shortest path).
            calp1 = 0
            calp2 = 0
            salp1 = 1
            salp2 = 1
            s12x = S.a * lam12
        } else if !meridian {
            let st = start(sbet1: sbet1, cbet1: cbet1, sbet2: sbet2, cbet2: cbet2,
                           lam12: lam12, slam12: slam12, clam12: clam12)
            salp1 = st.salp1
            calp1 = st.calp1
            if st.sig12 >= 0 {
                // Short line: the start is already the answer.
                salp2 = st.salp2
                calp2 = st.calp2
                s12x = st.sig12 * S.b * st.dnm
            } else {
                s12x = newton(sbet1: sbet1, cbet1: cbet1, dn1: dn1, sbet2: sbet2, cbet2: cbet2, dn2: dn2,
                              slam12: slam12, clam12: clam12, salp1: &salp1, calp1: &calp1,
                              salp2: &salp2, calp2: &calp2)
            }
        }

        if swapp < 0 {
            swap(&salp1, &salp2)
            swap(&calp1, &calp2)
        }
        salp1 *= swapp * lonsign
        calp1 *= swapp * latsign
        salp2 *= swapp * lonsign
        calp2 *= swapp * latsign
        return Result(distanceM: 0.0 + s12x, azi1Deg: M.atan2d(salp1, calp1), azi2Deg: M.atan2d(salp2, calp2))
    }

    /// Newton's method on alp1 with a bracketing bisection fallback; returns s12 in metres.
    private static func newton(sbet1: Double, cbet1: Double, dn1: Double, sbet2: Double, cbet2: Double,
                               dn2: Double, slam12: Double, clam12: Double, salp1: inout Double,
                               calp1: inout Double, salp2: inout Double, calp2: inout Double) -> Double {
        var numit = 0
        var tripn = false, tripb = false
        // Bracket [alp1a, alp1b] of the root.
        var salp1a = S.tiny, calp1a = 1.0, salp1b = S.tiny, calp1b = -1.0
        var l = Lambda()
        while true {
            l = lambda12(sbet1: sbet1, cbet1: cbet1, dn1: dn1, sbet2: sbet2, cbet2: cbet2, dn2: dn2,
                         salp1: salp1, calp1: calp1, slam120: slam12, clam120: clam12, diffp: numit < S.maxit1)
            let v = l.lam12
            if tripb || !(abs(v) >= (tripn ? 8 : 1) * S.tol0) || numit == S.maxit2 { break }
            if v > 0 && (numit > S.maxit1 || calp1 / salp1 > calp1b / salp1b) {
                salp1b = salp1
                calp1b = calp1
            } else if v < 0 && (numit > S.maxit1 || calp1 / salp1 < calp1a / salp1a) {
                salp1a = salp1
                calp1a = calp1
            }
            numit += 1
            if numit < S.maxit1 && l.dlam12 > 0 {
                let dalp1 = -v / l.dlam12
                if abs(dalp1) < .pi {
                    let sdalp1 = sin(dalp1), cdalp1 = cos(dalp1)
                    let nsalp1 = salp1 * cdalp1 + calp1 * sdalp1
                    if nsalp1 > 0 {
                        (salp1, calp1) = M.norm(nsalp1, calp1 * cdalp1 - salp1 * sdalp1)
                        tripn = abs(v) <= 16 * S.tol0
                        continue
                    }
                }
            }
            // Newton overshot or stalled: bisect the bracket.
            (salp1, calp1) = M.norm((salp1a + salp1b) / 2, (calp1a + calp1b) / 2)
            tripn = false
            tripb = abs(salp1a - salp1) + (calp1a - calp1) < S.tolb
                || abs(salp1 - salp1b) + (calp1 - calp1b) < S.tolb
        }
        salp2 = l.salp2
        calp2 = l.calp2
        let len = lengths(eps: l.eps, sig12: l.sig12, ssig1: l.ssig1, csig1: l.csig1, dn1: dn1,
                          ssig2: l.ssig2, csig2: l.csig2, dn2: dn2)
        return len.s12b * S.b
    }
}
