import Clocks
import QuadProtocol

/// The ground link: across a bridge no Last Will can tell the board that the laptop or the radio is gone, so the
/// ground sends a beacon (`location-broadcaster beacon`, a few per second) and the board times it on its own
/// monotonic clock. Silence → the lost-pilot policy (hover at once and drop the target, return home after
/// `--lost-pilot-return-after`, land after `--lost-pilot-land-after`), with reasons `ground-link-lost…`.
extension ControllerStateMachine {
    /// A beacon arrived. Its receipt times the link; its stamp is kept only as its sender's own clock, to age that
    /// sender's targets and commands by their stamps (`SenderClocks`).
    public mutating func groundBeacon(senderId: String, stamp: WallInstant,
                                      now: MonotonicInstant) -> [ControllerAction] {
        let nowUs = now.us
        lastGroundBeaconAtUs = nowUs
        senderClocks.record(senderId: senderId, stamp: stamp, receivedAt: now)
        guard isGroundLinkLost else { return [] }
        isGroundLinkLost = false
        var actions: [ControllerAction] = [.log(.info, "ground link back")]
        if flight?.pilotLoss.reason == .groundLinkLost {
            // A return or landing already under way runs its course; pending timers are cancelled and the drone
            // keeps hovering until the ground sends a new target.
            flight?.pilotLoss.returnAtUs = nil
            if activity != .returningHome, activity != .landing { flight?.pilotLoss.landAtUs = nil }
            if activity == .hovering { reason = .groundLinkBack }
            actions.append(.log(.info, "hovering until a new target"))
        }
        return finish(actions, nowUs: nowUs)
    }

    /// From the tick: declares the link lost once the beacon has been silent for `groundLinkTimeoutS`. A flight to
    /// the target hovers (the transition, for the tick to apply); the lost-pilot timers start.
    mutating func checkGroundLink(nowUs: Int64) -> (actions: [ControllerAction], transition: Transition?) {
        let timeoutUs = microseconds(fromSeconds: configuration.groundLinkTimeoutS)
        guard timeoutUs > 0, !isGroundLinkLost, let lastUs = lastGroundBeaconAtUs, nowUs &- lastUs > timeoutUs
        else { return ([], nil) }
        isGroundLinkLost = true
        let silentMs = (nowUs &- lastUs) / 1000
        guard activity.isAirborne || activity == .takingOff else {
            return ([.log(.warning, "ground link lost: no beacon for \(silentMs) ms")], nil)
        }
        // Whatever came from the ground is stale now; the drone must not fly on towards it unsupervised.
        clearTarget()
        var transition: Transition?
        if activity == .flyingToTarget || activity == .arrived {
            transition = Transition(to: .hovering, reason: .groundLinkLost)
        } else {
            reason = .groundLinkLost
        }
        // (Neither a flight to the target nor the hover it becomes is going home.)
        let goingHome = isReturningToLandAtHome || activity == .landing
        if !goingHome {
            flight?.pilotLoss.reason = .groundLinkLost
            flight?.pilotLoss.landAtUs = nowUs &+ microseconds(fromSeconds: configuration.lostPilotLandAfterS)
            if let returnAfterS = configuration.failsafes.lostPilotReturnAfterS,
               returnAfterS < configuration.lostPilotLandAfterS {
                flight?.pilotLoss.returnAtUs = nowUs &+ microseconds(fromSeconds: returnAfterS)
            }
        }
        return ([.log(.warning, "ground link lost: no beacon for \(silentMs) ms: "
            + (goingHome ? "carrying on home" : "hovering"
                + (flight?.pilotLoss.returnAtUs == nil ? ""
                    : ", returning home in \(configuration.failsafes.lostPilotReturnAfterS ?? 0) s")
                + ", landing in \(configuration.lostPilotLandAfterS) s unless the ground comes back"))], transition)
    }
}
