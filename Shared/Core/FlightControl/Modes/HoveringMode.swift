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
/// flight that lost ground). A navigation solution for a kept target resumes the flight (`navigation`). Pure
/// functions of its data and a narrow `Context`; its flight command is the controller's altitude hold alone.
extension ControllerMode.Hovering {
    /// All the hover reads of the controller.
    struct Context {
        let now: MonotonicInstant
        let positionFresh: Bool
        let navdataFresh: Bool
        /// The hover over home before its landing (`--return-hover`).
        let returnHomeHover: Duration
        /// The hover where a return was given up before its landing (`--abandoned-return-land-after`).
        let abandonedReturnLandAfter: Duration
    }

    /// On entry: the end of a return (over home, or given up) lands after its hover (a re-entry keeps that time).
    static func entering(_ transition: Transition, continuing: Self?, context: Context) -> Self {
        if let continuing { return continuing }
        switch transition.reason {
        case .homeReached:
            return Self(landing: .init(at: context.now.advanced(by: context.returnHomeHover), reason: .returnedHome))
        case .returnHomeNotProgressing:
            return Self(landing: .init(
                at: context.now.advanced(by: context.abandonedReturnLandAfter), reason: .returnHomeNotProgressing,
                log: .log(.warning, "return home was abandoned: landing where the drone is")))
        default:
            return Self()
        }
    }

    /// On its tick: the timed landing, when due.
    func tick(_ context: Context) -> Transition? {
        guard let landing, context.now >= landing.at else { return nil }
        return Transition(to: .landing, reason: landing.reason, log: landing.log)
    }

    /// On a fresh navigation solution for a kept target (hovering with one only happens after a stale-input or
    /// link-loss hover): fly on once position and navdata are fresh again.
    static func navigation(_ context: Context) -> Transition? {
        guard context.positionFresh && context.navdataFresh else { return nil }
        return Transition(to: .flyingToTarget, reason: .navigationResumed)
    }
}
