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
        lastGroundBeaconAt = now
        senderClocks.record(senderId: senderId, stamp: stamp, receivedAt: now)
        guard isGroundLinkLost else { return [] }
        isGroundLinkLost = false
        var actions: [ControllerAction] = [.log(.info, "ground link back")]
        if flight?.pilotLoss.cause == .groundLinkLost {
            // A return or landing already under way runs its course; pending timers are cancelled and the drone
            // keeps hovering until the ground sends a new target.
            flight?.pilotLoss.returnAt = nil
            if activity != .returningHome, activity != .landing { flight?.pilotLoss.landAt = nil }
            if activity == .hovering { actions += apply(.keeping(.hovering, reason: .groundLinkBack), now: now) }
            actions.append(.log(.info, "hovering until a new target"))
        }
        return finish(actions, now: now)
    }

    /// From the tick: declares the link lost once the beacon has been silent for `groundLinkTimeout`. A flight to
    /// the target hovers (the transition, for the tick to apply); the lost-pilot timers start.
    mutating func checkGroundLink(now: MonotonicInstant) -> (actions: [ControllerAction], transition: Transition?) {
        let timeout = configuration.groundLinkTimeout
        guard timeout > .zero, !isGroundLinkLost, let last = lastGroundBeaconAt, now - last > timeout
        else { return ([], nil) }
        isGroundLinkLost = true
        let silentMs = (now - last).us / 1000
        guard activity.isAirborne || activity == .takingOff else {
            return ([.log(.warning, "ground link lost: no beacon for \(silentMs) ms")], nil)
        }
        let loss = losePilot(cause: .groundLinkLost, now: now)
        return ([.log(.warning, "ground link lost: no beacon for \(silentMs) ms: \(loss.plan) unless the ground comes "
            + "back")], loss.transition)
    }
}
