import Clocks
import Navigation
import QuadProtocol

/// Home and the circular geofence around it (the return inside it: `Modes/ReturningHomeMode.swift`).
extension ControllerStateMachine {
    /// Sets home; a stored target that turns out to lie outside the new fence is dropped (a flight to it hovers).
    mutating func setHome(_ point: GeoPoint,
                          now: MonotonicInstant) -> (actions: [ControllerAction], transition: Transition?) {
        flight?.home = point
        guard let target, isOutsideGeofence(latitudeDeg: target.latitudeDeg, longitudeDeg: target.longitudeDeg)
        else { return ([], nil) }
        clearTarget()
        if activity == .flyingToTarget || activity == .arrived {
            return ([.rejected(kind: "target", reason: .targetRefusedGeofence)],
                    Transition(to: .hovering, reason: .targetRefusedGeofence))
        }
        return ([refuse(kind: "target", reason: .targetRefusedGeofence, now: now)], nil)
    }

    /// Measured from home, or from the drone's position while there is no home (on the ground).
    func isOutsideGeofence(latitudeDeg: Double, longitudeDeg: Double) -> Bool {
        guard let centre = home ?? lastPosition else { return false }
        let point = GeoPoint(latitudeDeg: latitudeDeg, longitudeDeg: longitudeDeg)
        return Geodesy.inverse(from: centre, to: point).distanceM > configuration.geofenceRadiusM
    }

    /// Leaving the fence → return until back inside by the margin, then hover (or land, `--on-geofence land`);
    /// target dropped. The return watches its progress (see `followReturn`).
    mutating func checkGeofence(dronePosition point: GeoPoint, now: MonotonicInstant) -> Transition? {
        guard let home else { return nil }
        let distanceM = Geodesy.inverse(from: home, to: point).distanceM
        switch activity {
        case .hovering, .flyingToTarget, .arrived:
            guard distanceM > configuration.geofenceRadiusM && flight?.returnAbandoned != true else { return nil }
            switch configuration.failsafes.geofence {
            case .returnInside:
                return returnTransition(goal: .insideFence, reason: .geofence, now: now)
            case .land:
                clearTarget()
                return Transition(to: .landing, reason: .geofence)
            }
        case .returningHome:
            // Measured to where the return goes: home, or the point that leaves an airspace zone.
            guard case .returningHome(let returning) = mode else { return nil }
            let toGoal = Geodesy.inverse(from: point, to: returning.goalPoint(home: home) ?? home)
            return followReturn(distanceM: toGoal.distanceM, bearingDeg: toGoal.initialBearingDeg, at: point,
                                now: now)
        default:
            return nil
        }
    }
}
