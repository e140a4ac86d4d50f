import Clocks
import QuadProtocol

/// Pilot arbitration: one broadcaster at a time may steer. The first valid claim wins; control ends on
/// release or when the pilot's presence goes offline.
extension ControllerStateMachine {
    /// `retained`: a retained claim is left over from an earlier session and never grants control.
    public mutating func controlClaim(_ claim: ControlClaim, retained: Bool = false,
                                      now: MonotonicInstant) -> [ControllerAction] {
        let nowUs = now.us
        guard !claim.senderId.isEmpty else {
            return finish([refuse(kind: "claim", reason: .claimInvalidSender)], nowUs: nowUs)
        }
        guard !retained else {
            return finish([refuse(kind: "claim", reason: .claimRetained)], nowUs: nowUs)
        }
        // A release too: one queued for an earlier run would take control from a pilot that claimed it again.
        if let refusal = previousRunRefusal(kind: "claim", reason: .claimForPreviousRun,
                                            what: "\(claim.action.jsonName) of pilot control",
                                            from: claim.senderId, addressedTo: claim.controllerRunId) {
            return finish(refusal, nowUs: nowUs)
        }
        switch claim.action {
        case .claim:
            if pilotId == claim.senderId { return finish([], nowUs: nowUs) }
            if pilotId != nil { return finish([refuse(kind: "claim", reason: .claimRefused)], nowUs: nowUs) }
            pilotId = claim.senderId
            lostPilotId = nil
            flight?.pilotLoss.cancelTimers()
            reason = .controlGranted
        case .release:
            guard pilotId == claim.senderId else {
                return finish([refuse(kind: "claim", reason: .notPilot)], nowUs: nowUs)
            }
            pilotId = nil
            reason = .controlReleased
            forgetResumableFlight(because: "its pilot released control")
        }
        return finish([], nowUs: nowUs)
    }

    /// Presence from `quad/<id>/status/<service>`; a broadcaster's service name is its sender id.
    /// Vehicle links by service name → whether their vehicle holds the ground velocity it is given.
    static let vehicleLinks = ["mavlink-link": true, "drone-link": false]

    public mutating func presence(serviceName: String, online: Bool, now: MonotonicInstant) -> [ControllerAction] {
        let nowUs = now.us
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
                reason = .pilotBack
            }
        } else if let pilot = pilotId, pilot == serviceName {
            pilotId = nil
            lostPilotId = pilot
            reason = .pilotLost
            flight?.pilotLoss.reason = .pilotLost
            if activity.isAirborne || activity == .takingOff {
                // The target came from the lost pilot; stop at once and land unless a pilot returns in time.
                clearTarget()
                if activity == .flyingToTarget || activity == .arrived {
                    transition = Transition(to: .hovering, reason: .pilotLost)
                }
                // Already on the way home (it lands there): no timer may land it half-way. (A flight to the target,
                // and the hover it becomes, is not.)
                let goingHome = isReturningToLandAtHome
                flight?.pilotLoss.landAtUs = goingHome ? nil
                    : nowUs &+ microseconds(fromSeconds: configuration.lostPilotLandAfterS)
                // The failsafe table: hover, return home after N s (the return lands there), else land.
                if !goingHome, let returnAfterS = configuration.failsafes.lostPilotReturnAfterS,
                   returnAfterS < configuration.lostPilotLandAfterS {
                    flight?.pilotLoss.returnAtUs = nowUs &+ microseconds(fromSeconds: returnAfterS)
                }
                actions.append(.log(.warning, "pilot '\(pilot)' went offline: hovering"
                    + (flight?.pilotLoss.returnAtUs == nil ? ""
                        : ", returning home in \(configuration.failsafes.lostPilotReturnAfterS ?? 0) s")
                    + ", landing in \(configuration.lostPilotLandAfterS) s unless a pilot returns"))
            }
        }
        actions += apply(transition, nowUs: nowUs)
        return finish(actions, nowUs: nowUs)
    }
}
