import Clocks
import QuadProtocol

extension ControllerMode {
    /// Holding where the drone is.
    struct Hovering: Sendable, Equatable {
        /// Hovering over home after a return: land at this time.
        var homeReachedLandAt: MonotonicInstant?
    }
}

/// Hovering: after takeoff without a target, on `hover`, and the failsafes' hold (stale inputs, lost links, a
/// flight that lost ground). A navigation solution for a kept target resumes the flight (`navigation`).
extension ControllerStateMachine {
    /// On entry: over home at the end of a return, land once the position had time to settle (a re-entry keeps
    /// that time).
    func hoveringEntry(_ transition: Transition, now: MonotonicInstant) -> ControllerMode.Hovering {
        if case .hovering(let hovering) = mode { return hovering }
        guard transition.reason == .homeReached else { return ControllerMode.Hovering() }
        return ControllerMode.Hovering(
            homeReachedLandAt: now.advanced(by: configuration.returnHomeHover))
    }

    /// On its tick: over home after a return, land once the position had time to settle.
    func hoveringTick(_ hovering: ControllerMode.Hovering, now: MonotonicInstant) -> Transition? {
        guard let landAt = hovering.homeReachedLandAt, now >= landAt else { return nil }
        return Transition(to: .landing, reason: .returnedHome)
    }

    /// On a fresh navigation solution for a kept target (hovering with one only happens after a stale-input or
    /// link-loss hover): fly on once position and navdata are fresh again.
    func hoveringNavigation(now: MonotonicInstant) -> Transition? {
        guard positionFresh(now: now) && droneStateFresh(now: now) else { return nil }
        return Transition(to: .flyingToTarget, reason: .navigationResumed)
    }

    /// Its flight command: the drone's own hover, at the wanted altitude.
    func hoveringCommand(into command: inout FlightCommand, now: MonotonicInstant) {
        holdAltitude(&command, now: now)
    }
}
