import Clocks
import QuadProtocol

extension ControllerMode {
    /// Holding where the drone is.
    struct Hovering: Sendable, Equatable {
        /// Hover, then land at a time: over home after a return (`returned-home`, after `--return-hover`), or where
        /// a return that lost ground was given up (`return-home-not-progressing`, after
        /// `--abandoned-return-land-after`). A new target is a new order and ends the hover, and the landing with it.
        var landing: TimedLanding?
    }

    struct TimedLanding: Sendable, Equatable {
        var at: MonotonicInstant
        var reason: Reason
        var log: ControllerAction?
    }
}

/// Hovering: after takeoff without a target, on `hover`, and the failsafes' hold (stale inputs, lost links, a
/// flight that lost ground). A navigation solution for a kept target resumes the flight (`navigation`).
extension ControllerStateMachine {
    /// On entry: the end of a return (over home, or given up) lands after its hover (a re-entry keeps that time).
    func hoveringEntry(_ transition: Transition, now: MonotonicInstant) -> ControllerMode.Hovering {
        if case .hovering(let hovering) = mode { return hovering }
        switch transition.reason {
        case .homeReached:
            return ControllerMode.Hovering(landing: .init(at: now.advanced(by: configuration.returnHomeHover),
                                                          reason: .returnedHome))
        case .returnHomeNotProgressing:
            return ControllerMode.Hovering(landing: .init(
                at: now.advanced(by: configuration.abandonedReturnLandAfter), reason: .returnHomeNotProgressing,
                log: .log(.warning, "return home was abandoned: landing where the drone is")))
        default:
            return ControllerMode.Hovering()
        }
    }

    /// On its tick: the timed landing, when due.
    func hoveringTick(_ hovering: ControllerMode.Hovering, now: MonotonicInstant) -> Transition? {
        guard let landing = hovering.landing, now >= landing.at else { return nil }
        return Transition(to: .landing, reason: landing.reason, log: landing.log)
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
