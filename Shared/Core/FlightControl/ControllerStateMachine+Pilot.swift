import Clocks
import QuadProtocol

/// Pilot arbitration: one broadcaster at a time may steer. The first valid claim wins; control ends on
/// release or when the pilot's presence goes offline.
extension ControllerStateMachine {
    /// `retained`: a retained claim is left over from an earlier session and never grants control.
    public mutating func controlClaim(_ claim: ControlClaim, retained: Bool = false,
                                      now: MonotonicInstant) -> [ControllerAction] {
        guard !claim.senderId.isEmpty else {
            return finish([refuse(kind: "claim", reason: .claimInvalidSender, now: now)], now: now)
        }
        guard !retained else {
            return finish([refuse(kind: "claim", reason: .claimRetained, now: now)], now: now)
        }
        // A release too: one queued for an earlier run would take control from a pilot that claimed it again.
        if let refusal = previousRunRefusal(kind: "claim", reason: .claimForPreviousRun,
                                            what: "\(claim.action.jsonName) of pilot control",
                                            from: claim.senderId, addressedTo: claim.controllerRunId, now: now) {
            return finish(refusal, now: now)
        }
        switch claim.action {
        case .claim:
            if pilotId == claim.senderId { return finish([], now: now) }
            if pilotId != nil { return finish([refuse(kind: "claim", reason: .claimRefused, now: now)], now: now) }
            pilotId = claim.senderId
            lostPilotId = nil
            flight?.pilotLoss.cancelTimers()
            return finish(apply(.keeping(activity, reason: .controlGranted), now: now), now: now)
        case .release:
            guard pilotId == claim.senderId else {
                return finish([refuse(kind: "claim", reason: .notPilot, now: now)], now: now)
            }
            pilotId = nil
            forgetResumableFlight(because: "its pilot released control")
            return finish(apply(.keeping(activity, reason: .controlReleased), now: now), now: now)
        }
    }

    /// Presence from `quad/<id>/status/<service>`; a broadcaster's service name is its sender id.
    /// Vehicle links by service name → whether their vehicle holds the ground velocity it is given.
    static let vehicleLinks = ["mavlink-link": true, "drone-link": false]

    public mutating func presence(serviceName: String, online: Bool, now: MonotonicInstant) -> [ControllerAction] {
        var actions: [ControllerAction] = []
        var transition: Transition?
        // The vehicle link says what a tilt means (`vehicleHoldsGroundVelocity`); the last one online decides.
        if online, let kind = Self.vehicleLinks[serviceName] {
            vehicleHoldsGroundVelocity = kind
            if kind { wind.reset() }
        }
        if online {
            if pilotId == nil, let lost = lostPilotId, lost == serviceName {
                pilotId = lost
                lostPilotId = nil
                flight?.pilotLoss.cancelTimers()
                transition = .keeping(activity, reason: .pilotBack)
            }
        } else if let pilot = pilotId, pilot == serviceName {
            pilotId = nil
            lostPilotId = pilot
            if activity.isAirborne || activity == .takingOff {
                let loss = losePilot(cause: .pilotLost, now: now)
                transition = loss.transition
                actions.append(.log(.warning, "pilot '\(pilot)' went offline: \(loss.plan) unless a pilot returns"))
            } else {
                transition = .keeping(activity, reason: .pilotLost)
            }
        }
        actions += apply(transition, now: now)
        return finish(actions, now: now)
    }
}

/// The lost-pilot rule, one for both causes: the pilot's presence went offline (`.pilotLost`), or the ground beacon
/// went silent (`.groundLinkLost`, `checkGroundLink`).
extension ControllerStateMachine {
    /// In the air or taking off: whatever came from the ground is stale now, so the target is dropped and a
    /// flight to it hovers at once; unless the drone is already on its way to land at home, it returns home after
    /// `--lost-pilot-return-after` (the return lands there) and lands after `--lost-pilot-land-after`. `plan`
    /// says what comes next, for the log line.
    mutating func losePilot(cause: Reason, now: MonotonicInstant) -> (transition: Transition, plan: String) {
        if let duringMission = missionLosePilot(cause: cause, now: now) { return duringMission }
        clearTarget()
        let transition: Transition = activity == .flyingToTarget || activity == .arrived
            ? Transition(to: .hovering, reason: cause) : .keeping(activity, reason: cause)
        // Already on the way home (it lands there): no timer may land it half-way. (A flight to the target, and
        // the hover it becomes, is not.)
        guard !isReturningToLandAtHome else { return (transition, "carrying on home") }
        flight?.pilotLoss = PilotLoss(cause: cause, now: now, configuration: configuration)
        let returning = flight?.pilotLoss.returnAt == nil ? ""
            : ", returning home in \((configuration.failsafes.lostPilotReturnAfter ?? .zero).inSeconds) s"
        return (transition, "hovering\(returning), landing in \(configuration.lostPilotLandAfter.inSeconds) s")
    }
}
