import Navigation
import QuadProtocol

/// Targets: screened for the pilot, restart safety and the geofence, then stored or flown to.
extension ControllerStateMachine {
    /// `retained` is the MQTT retain flag of the delivery: a retained target is left over from an earlier
    /// session and is never acted on.
    public mutating func target(_ newTarget: Target, retained: Bool, nowUs: Int64) -> [ControllerAction] {
        if let refusal = targetRefusal(newTarget, retained: retained, nowUs: nowUs) {
            return finish([refuse(kind: "target", reason: refusal)], nowUs: nowUs)
        }
        let previous = target
        target = newTarget
        lastNavigation = nil
        switch activity {
        case .hovering, .flyingToTarget:
            transition(to: .flyingToTarget, reason: "new-target", nowUs: nowUs)
        case .arrived:
            // A re-sent or slightly moved target keeps the drone arrived; the next solution decides (hysteresis).
            if let previous, !isNear(previous, newTarget) {
                transition(to: .flyingToTarget, reason: "new-target", nowUs: nowUs)
            }
        case .landed, .landing, .takingOff, .returningHome, .emergency:
            // Stored: flown to after takeoff / after returning inside the fence. Never a reason to take off.
            reason = "target-stored"
        }
        return finish([], nowUs: nowUs)
    }

    /// Why a target is not acted on, or nil to accept it.
    func targetRefusal(_ candidate: Target, retained: Bool, nowUs: Int64) -> String? {
        if let pilotId, candidate.senderId != pilotId { return "not-pilot" }
        if retained { return "target-retained" }
        if candidate.ttlS > 0,
           Double(candidate.timestampUs) + Double(candidate.ttlS) * 1_000_000 < Double(nowUs) {
            return "target-expired"
        }
        if isFromBeforeStart(timestampUs: candidate.timestampUs) { return "target-before-start" }
        guard isValidCoordinate(latitudeDeg: candidate.latitudeDeg, longitudeDeg: candidate.longitudeDeg) else {
            return "target-invalid"
        }
        if activity == .emergency { return "target-refused-emergency" }
        if isOutsideGeofence(latitudeDeg: candidate.latitudeDeg, longitudeDeg: candidate.longitudeDeg) {
            return "target-refused-geofence"
        }
        return nil
    }

    /// Two targets closer together than the distance that would make an arrived drone fly again.
    func isNear(_ a: Target, _ b: Target) -> Bool {
        let separationM = Geodesy.inverse(
            from: GeoPoint(latitudeDeg: a.latitudeDeg, longitudeDeg: a.longitudeDeg),
            to: GeoPoint(latitudeDeg: b.latitudeDeg, longitudeDeg: b.longitudeDeg)).distanceM
        return !law.hasLeftArrival(distanceM: separationM)
    }
}
