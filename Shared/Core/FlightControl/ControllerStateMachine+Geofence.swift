import Navigation
import QuadProtocol

/// Home, the circular geofence around it, and steering back home.
extension ControllerStateMachine {
    /// Sets home; a stored target that turns out to lie outside the new fence is dropped (a flight to it hovers).
    mutating func setHome(_ point: GeoPoint) -> (actions: [ControllerAction], transition: Transition?) {
        flight?.home = point
        guard let target, isOutsideGeofence(latitudeDeg: target.latitudeDeg, longitudeDeg: target.longitudeDeg)
        else { return ([], nil) }
        clearTarget()
        if activity == .flyingToTarget || activity == .arrived {
            return ([.rejected(kind: "target", reason: .targetRefusedGeofence)],
                    Transition(to: .hovering, reason: .targetRefusedGeofence))
        }
        return ([refuse(kind: "target", reason: .targetRefusedGeofence)], nil)
    }

    /// Measured from home, or from the drone's position while there is no home (on the ground).
    func isOutsideGeofence(latitudeDeg: Double, longitudeDeg: Double) -> Bool {
        guard let centre = home ?? lastPosition else { return false }
        let point = GeoPoint(latitudeDeg: latitudeDeg, longitudeDeg: longitudeDeg)
        return Geodesy.inverse(from: centre, to: point).distanceM > configuration.geofenceRadiusM
    }

    /// Leaving the fence → return until back inside by the margin, then hover (or land, `--on-geofence land`);
    /// target dropped. The return watches its progress (see `followReturn`).
    mutating func checkGeofence(dronePosition point: GeoPoint, nowUs: Int64) -> Transition? {
        guard let home else { return nil }
        let distanceM = Geodesy.inverse(from: home, to: point).distanceM
        switch activity {
        case .hovering, .flyingToTarget, .arrived:
            guard distanceM > configuration.geofenceRadiusM && flight?.returnAbandoned != true else { return nil }
            switch configuration.failsafes.geofence {
            case .returnInside:
                return returnTransition(goal: .insideFence, reason: .geofence, nowUs: nowUs)
            case .land:
                clearTarget()
                return Transition(to: .landing, reason: .geofence)
            }
        case .returningHome:
            let toHome = Geodesy.inverse(from: point, to: home)
            return followReturn(distanceM: distanceM, bearingDeg: toHome.initialBearingDeg, at: point, nowUs: nowUs)
        default:
            return nil
        }
    }

    /// Hover to brake first, then steer toward home with the normal control law; hover whenever position
    /// or heading is unknown or stale.
    func returnHomeSteering(_ returning: ControllerMode.ReturningHome, nowUs: Int64) -> ControlLaw.Steering {
        guard nowUs &- returning.startedAtUs >= microseconds(fromSeconds: configuration.geofenceBrakeS),
              let home, let position = lastPosition, positionFresh(nowUs: nowUs),
              let headingDeg = bodyHeadingDeg(nowUs: nowUs)
        else { return .hover }
        let toHome = Geodesy.inverse(from: position, to: home)
        let differenceDeg = Geodesy.wrapDeg180(toHome.initialBearingDeg - headingDeg)
        return law.steering(distanceM: toHome.distanceM, directionDifferenceDeg: differenceDeg)
    }
}
