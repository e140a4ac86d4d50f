import Navigation
import QuadProtocol

/// Home, the circular geofence around it, and steering back home.
extension ControllerStateMachine {
    /// Sets home; a stored target that turns out to lie outside the new fence is dropped.
    mutating func setHome(_ point: GeoPoint, nowUs: Int64) -> [ControllerAction] {
        home = point
        guard let target, isOutsideGeofence(latitudeDeg: target.latitudeDeg, longitudeDeg: target.longitudeDeg)
        else { return [] }
        clearTarget()
        if activity == .flyingToTarget || activity == .arrived {
            transition(to: .hovering, reason: "target-refused-geofence", nowUs: nowUs)
            return [.rejected(kind: "target", reason: "target-refused-geofence")]
        }
        return [refuse(kind: "target", reason: "target-refused-geofence")]
    }

    /// Measured from home, or from the drone's position while there is no home (on the ground).
    func isOutsideGeofence(latitudeDeg: Double, longitudeDeg: Double) -> Bool {
        guard let centre = home ?? lastPosition else { return false }
        let point = GeoPoint(latitudeDeg: latitudeDeg, longitudeDeg: longitudeDeg)
        return Geodesy.inverse(from: centre, to: point).distanceM > configuration.geofenceRadiusM
    }

    /// Leaving the fence → return home (target dropped); back inside by the margin → hover. A return that loses
    /// ground (the wind carries the drone away faster than it flies) is abandoned: hover — the drone's own
    /// position hold drifts far less than full tilt into the wind — then land after a few seconds.
    mutating func checkGeofence(dronePosition point: GeoPoint, nowUs: Int64) -> [ControllerAction] {
        guard let home else { return [] }
        let distanceM = Geodesy.inverse(from: home, to: point).distanceM
        switch activity {
        case .hovering, .flyingToTarget, .arrived:
            if distanceM > configuration.geofenceRadiusM && !returnAbandoned {
                clearTarget()
                transition(to: .returningHome, reason: "geofence", nowUs: nowUs)
            }
        case .returningHome:
            if distanceM <= configuration.geofenceRadiusM - configuration.geofenceReturnMarginM {
                // A target accepted during the return (it was checked against the fence) is flown to next.
                transition(to: target == nil ? .hovering : .flyingToTarget, reason: "back-inside-geofence",
                           nowUs: nowUs)
            } else if nowUs &- returnStartedAtUs >= microseconds(fromSeconds: configuration.geofenceBrakeS),
                      returnProgress.observe(distanceM: distanceM, atUs: nowUs) {
                let bestM = returnProgress.bestDistanceM
                clearTarget()
                returnAbandoned = true
                abandonedReturnLandAtUs = nowUs &+ microseconds(fromSeconds: configuration.abandonedReturnLandAfterS)
                transition(to: .hovering, reason: "return-home-not-progressing", nowUs: nowUs)
                return [.log(.warning, "return home lost ground (\(Int(distanceM)) m from home, best \(Int(bestM)) m): "
                    + "hovering, landing in \(configuration.abandonedReturnLandAfterS) s")]
            }
        default:
            break
        }
        return []
    }

    /// Hover to brake first, then steer toward home with the normal control law; hover whenever position
    /// or heading is unknown or stale.
    func returnHomeSteering(nowUs: Int64) -> ControlLaw.Steering {
        guard nowUs &- returnStartedAtUs >= microseconds(fromSeconds: configuration.geofenceBrakeS),
              let home, let position = lastPosition, positionFresh(nowUs: nowUs),
              let headingDeg = bodyHeadingDeg(nowUs: nowUs)
        else { return .hover }
        let toHome = Geodesy.inverse(from: position, to: home)
        let differenceDeg = Geodesy.wrapDeg180(toHome.initialBearingDeg - headingDeg)
        return law.steering(distanceM: toHome.distanceM, directionDifferenceDeg: differenceDeg)
    }
}
