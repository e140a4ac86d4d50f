import Clocks
import Navigation
import QuadProtocol

/// Targets: screened for the pilot, restart safety and the geofence, then stored or flown to.
extension ControllerStateMachine {
    /// `retained` is the MQTT retain flag of the delivery: a retained target is left over from an earlier
    /// session and is never acted on. The ttl (if any) counts from `now`, the receipt: the sender's timestamp
    /// is for logs only.
    public mutating func target(_ newTarget: Target, retained: Bool, now: MonotonicInstant) -> [ControllerAction] {
        // Before the pilot and range checks: a target for an earlier run is no order of this one's pilot either.
        if !retained, let refusal = previousRunRefusal(kind: "target", reason: .targetForPreviousRun,
                                                       what: "target", from: newTarget.senderId,
                                                       addressedTo: newTarget.controllerRunId, now: now) {
            return finish(refusal, now: now)
        }
        if let refusal = targetRefusal(newTarget, retained: retained, now: now) {
            return finish([refuse(kind: "target", reason: refusal, now: now)], now: now)
        }
        let judged = airspaceJudgement(newTarget, now: now)
        if let refusal = judged.refusal {
            // The status first: a ground tool that reads the refusal in the state has the zone's name already.
            let status = ControllerAction.publishAirspaceStatus(airspace.nextStatus())
            return finish([status, refuse(kind: "target", reason: refusal, now: now)], now: now)
        }
        let previous = target
        target = newTarget
        route = judged.route
        let flownReason: Reason = judged.route?.corners.isEmpty == false ? .targetAroundZone : .newTarget
        if let around = judged.route, !around.corners.isEmpty {
            pendingLogs.append(routeLog(around, zoneName: judged.aroundZone, to: newTarget))
        }
        targetReceivedAt = now
        forgetResumableFlight(because: "a new target came first")
        lastNavigation = nil
        if previous.map({ !isNear($0, newTarget) }) ?? true {
            resetTargetArrival()
            flyingToTargetMoved()
        }
        if activity.isAirborne && activity != .returningHome {
            let altitudeM = wantedAltitude(for: newTarget)
            flight?.wantedAltitudeM = altitudeM
        }
        let transition: Transition?
        switch activity {
        case .hovering, .flyingToTarget:
            transition = Transition(to: .flyingToTarget, reason: flownReason)
        case .arrived:
            // A re-sent or slightly moved target keeps the drone arrived; the next solution decides (hysteresis).
            let moved = previous.map { !isNear($0, newTarget) } ?? false
            transition = moved ? Transition(to: .flyingToTarget, reason: flownReason) : nil
        case .unknown, .landed, .landing, .takingOff, .returningHome, .emergency:
            // Stored: flown to after takeoff / after returning inside the fence. Never a reason to take off.
            transition = .keeping(activity, reason: .targetStored)
        }
        return finish(apply(transition, now: now), now: now)
    }

    /// Why a target is not acted on, or nil to accept it.
    func targetRefusal(_ candidate: Target, retained: Bool, now: MonotonicInstant) -> Reason? {
        if let pilotId, candidate.senderId != pilotId { return .notPilot }
        // A retained target was left on the broker by an earlier session; only a live delivery is an order.
        if retained { return .targetRetained }
        if expiredInQueue(candidate, now: now) { return .targetExpiredInQueue }
        guard isValidCoordinate(latitudeDeg: candidate.latitudeDeg, longitudeDeg: candidate.longitudeDeg) else {
            return .targetInvalid
        }
        if let refusal = altitudeRefusal(candidate) { return refusal }
        if activity == .emergency { return .targetRefusedEmergency }
        // The low-battery rule is returning home or landing: a new target would fly away on what is left.
        if flight?.batteryFailsafeFired == true { return .targetRefusedBatteryLow }
        if isOutsideGeofence(latitudeDeg: candidate.latitudeDeg, longitudeDeg: candidate.longitudeDeg) {
            return .targetRefusedGeofence
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
