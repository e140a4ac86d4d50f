#if canImport(Glibc)
import Glibc
#endif
import Airspace
import Clocks
import Navigation
import QuadProtocol

/// The airspace in flight (issue 38, item 3): a target and its leg keep the margin when accepted, but wind, noise
/// or an overshoot can still carry the drone toward a zone. On every fix, hovering, flying to a target or over it:
/// brake when where the drone would stop comes within half the margin of a wall; leave (straight out to the nearest
/// point the margin clears, then hover) when it is already within half the margin or in a zone it may not be in,
/// then return home around the zones (`--on-airspace-breach return`), or land (`land`). A return home is not watched:
/// it goes around the zones it knows of (`homeRoute`), docs/airspace.md.
extension ControllerStateMachine {
    mutating func watchAirspace(dronePosition fix: GeoPoint, now: MonotonicInstant) -> Transition? {
        guard let current = airspace.current, !current.zones.isEmpty,
              activity == .hovering || activity == .flyingToTarget || activity == .arrived else {
            airspaceFixes.reset()
            return nil
        }
        // Judged on the mean of the last second of fixes, moved on by the velocity for the half second it lags: one
        // noisy fix (drone-sim: 1.5 m by default) must not send the drone out of a margin it never entered.
        airspaceFixes.observe(fix, at: now)
        let velocity = groundVelocity(now: now)
        let mean = airspaceFixes.mean ?? fix
        let lag = airspaceFixes.window.inSeconds / 2
        let speedMps = (velocity.east * velocity.east + velocity.north * velocity.north).squareRoot()
        let point = speedMps < 0.01 ? mean : Geodesy.destination(
            from: mean, bearingDeg: Geodesy.wrapDeg360(atan2(velocity.east, velocity.north) * 180 / .pi),
            distanceM: speedMps * lag)
        switch current.watch(position: point, velocityEastMps: velocity.east, velocityNorthMps: velocity.north) {
        case .clear:
            return nil
        case .brake(let zoneName):
            // A hover brakes already; a flight to a target stops short, and the target goes (its leg no longer holds).
            guard activity == .flyingToTarget else { return nil }
            clearTarget()
            return Transition(to: .hovering, reason: .airspaceBrake, log: .log(.warning, """
                airspace: braking, the stop would come within half the margin of \(Self.named(zoneName)) \
                (\(Self.speedText(velocity)))
                """))
        case let .leave(breach, zoneName, safePoint):
            // Hovering after a breach with nowhere found to go: said once, not on every fix.
            if activity == .hovering, reason == .airspaceBreach { return nil }
            let what = breach.map { "\($0.kind.rawValue) \(Self.named(zoneName))" }
                ?? "within half the margin of \(Self.named(zoneName))"
            clearTarget()
            switch configuration.failsafes.airspaceBreach {
            case .land:
                return Transition(to: .landing, reason: .airspaceBreach,
                                  log: .log(.warning, "airspace: \(what): landing (--on-airspace-breach land)"))
            case .leave, .returnHome:
                guard let safePoint else {
                    return Transition(to: .hovering, reason: .airspaceBreach,
                                      log: .log(.error, "airspace: \(what), and no clear point near: hovering"))
                }
                let away = Geodesy.inverse(from: point, to: safePoint)
                return .returningHome(
                    goal: .leaveZone(safePoint), reason: .airspaceBreach,
                    altitudeM: wantedAltitudeM ?? returnAltitudeM(now: now),
                    log: .log(.warning, """
                        airspace: \(what): leaving for \(safePoint.latitudeDeg),\(safePoint.longitudeDeg) \
                        (\(Int(away.distanceM.rounded())) m at \(Int(away.initialBearingDeg.rounded()))°)
                        """))
            }
        }
    }

    /// The drone's ground velocity from fresh navdata (its body-frame velocities turned by its heading), m/s east
    /// and north; zero without fresh navdata or a heading.
    func groundVelocity(now: MonotonicInstant) -> (east: Double, north: Double) {
        guard let state = lastDroneState, droneStateFresh(now: now), let headingDeg = headingFor(state),
              state.velocityXMps.isFinite, state.velocityYMps.isFinite else { return (0, 0) }
        return WindEstimator.world(forward: Double(state.velocityXMps), right: Double(state.velocityYMps),
                                   headingDeg: headingDeg)
    }

    private static func named(_ zoneName: String?) -> String { zoneName.map { "zone '\($0)'" } ?? "the airspace" }

    private static func speedText(_ velocity: (east: Double, north: Double)) -> String {
        let speed = (velocity.east * velocity.east + velocity.north * velocity.north).squareRoot()
        return "\((speed * 10).rounded() / 10) m/s"
    }
}
