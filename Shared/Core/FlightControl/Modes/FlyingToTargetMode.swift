import Clocks
import QuadProtocol

extension ControllerMode {
    /// Steering toward the target (or, around a keep-out zone, the route's corner: `ControllerStateMachine+
    /// AirspaceRoute`).
    struct FlyingToTarget: Sendable, Equatable {
        /// Since the last (re)entry: inputs must be fresh within `staleAfter` of it.
        var since: MonotonicInstant
        /// Does the flight to the target get closer?
        var progress: ProgressWatch
        /// Arrival on several fixes, not one noisy one.
        var arrival: ArrivalFilter
    }
}

/// Flying to the target: pure functions of its data and a narrow `Context`. On entry its freshness clock starts;
/// arrival and progress are judged on each navigation solution (the controller's `navigation`).
extension ControllerMode.FlyingToTarget {
    /// All the flight to the target reads of the controller.
    struct Context {
        let now: MonotonicInstant
        let positionFresh: Bool
        let navigationFresh: Bool
        /// Navdata shows the wanted altitude (or none is wanted).
        let altitudeReached: Bool
        /// How old inputs may be, and what the failsafe table says when they are older (`--on-stale-navigation`).
        let staleAfter: Duration
        let staleNavigation: FailsafePolicy.StaleNavigation
        /// Its arrival radius.
        let law: ControlLaw
    }

    /// On entry: the freshness clock starts (again, on a re-entry); from arrived, the arrival filter goes on.
    static func entering(continuing: Self?, fromArrived: ControllerMode.Arrived?, now: MonotonicInstant,
                         newProgress: ProgressWatch, newArrival: ArrivalFilter) -> Self {
        if var flying = continuing {
            flying.since = now
            return flying
        }
        return Self(since: now, progress: newProgress, arrival: fromArrived?.arrival ?? newArrival)
    }

    /// On its tick: stale position or navigation → the failsafe table's row: hover (default: wait for fresh input,
    /// keep the target) or land.
    func tick(_ context: Context) -> Transition? {
        guard context.now - since > context.staleAfter else { return nil }
        let action: ControllerState.Activity = context.staleNavigation == .land ? .landing : .hovering
        if !context.positionFresh { return Transition(to: action, reason: .stalePosition) }
        if !context.navigationFresh { return Transition(to: action, reason: .staleNavigation) }
        return nil
    }

    /// On a fresh navigation solution (in the filter already): arrival is 3-D, the horizontal radius (filtered)
    /// and the altitude within its tolerance.
    func arrival(_ context: Context) -> Transition? {
        guard let filteredM = arrival.filteredDistanceM, context.law.hasArrived(distanceM: filteredM),
              context.altitudeReached else { return nil }
        return Transition(to: .arrived, reason: .arrived)
    }

    /// Does the drone get closer? Steering that carries it away (wind stronger than the drone, a bad compass)
    /// hovers, which drifts far less; the target is dropped (by the controller) and the pilot decides what next.
    mutating func observeProgress(distanceM: Double, now: MonotonicInstant) -> Transition? {
        guard progress.observe(distanceM: distanceM, at: now) else { return nil }
        return Transition(to: .hovering, reason: .targetNotProgressing, log: .log(.warning,
            "flying to the target lost ground (now \(Int(distanceM)) m, best \(Int(progress.bestDistanceM)) m): "
                + "hovering, target dropped"))
    }

    /// Its flight command, besides the altitude hold: the position law near the target (with fresh inputs and a
    /// filtered distance), the article's control law farther out.
    func holdsPosition(_ context: Context) -> Bool { context.navigationFresh && context.positionFresh }
}
