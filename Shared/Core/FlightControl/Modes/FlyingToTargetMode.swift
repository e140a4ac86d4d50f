import Clocks
import QuadProtocol

extension ControllerMode {
    /// Steering toward the target.
    struct FlyingToTarget: Sendable, Equatable {
        /// Since the last (re)entry: inputs must be fresh within `staleAfter` of it.
        var since: MonotonicInstant
        /// Does the flight to the target get closer?
        var progress: ProgressWatch
        /// Arrival on several fixes, not one noisy one.
        var arrival: ArrivalFilter
    }
}

extension ControllerMode.FlyingToTarget {
    /// Does the drone get closer? Steering that carries it away (wind stronger than the drone, a bad compass)
    /// hovers, which drifts far less; the target is dropped (by the controller) and the pilot decides what next.
    mutating func observeProgress(distanceM: Double, now: MonotonicInstant) -> Transition? {
        guard progress.observe(distanceM: distanceM, at: now) else { return nil }
        return Transition(to: .hovering, reason: .targetNotProgressing, log: .log(.warning,
            "flying to the target lost ground (now \(Int(distanceM)) m, best \(Int(progress.bestDistanceM)) m): "
                + "hovering, target dropped"))
    }
}

/// Flying to the target. On entry: its freshness clock starts (`entering`); arrival and progress are judged on
/// each navigation solution (`navigation`).
extension ControllerStateMachine {
    /// On entry: the freshness clock starts (again, on a re-entry); from arrived, the arrival filter goes on.
    func flyingToTargetEntry(now: MonotonicInstant) -> ControllerMode.FlyingToTarget {
        switch mode {
        case .flyingToTarget(var flying):
            flying.since = now
            return flying
        case .arrived(let arrived):
            return ControllerMode.FlyingToTarget(since: now, progress: newProgressWatch, arrival: arrived.arrival)
        default:
            return ControllerMode.FlyingToTarget(since: now, progress: newProgressWatch, arrival: newArrivalFilter)
        }
    }

    /// On its tick: stale position or navigation → the failsafe table's row: hover (default: wait for fresh input,
    /// keep the target) or land.
    func flyingToTargetTick(_ flying: ControllerMode.FlyingToTarget, now: MonotonicInstant) -> Transition? {
        guard now - flying.since > configuration.staleAfter else { return nil }
        let action: Activity = configuration.failsafes.staleNavigation == .land ? .landing : .hovering
        if !positionFresh(now: now) { return Transition(to: action, reason: .stalePosition) }
        if !navigationFresh(now: now) { return Transition(to: action, reason: .staleNavigation) }
        return nil
    }

    /// On a fresh navigation solution (in the filter already): arrival is 3-D, the horizontal radius (filtered)
    /// and the altitude within its tolerance.
    func flyingToTargetArrival(_ flying: ControllerMode.FlyingToTarget, now: MonotonicInstant) -> Transition? {
        guard let filteredM = flying.arrival.filteredDistanceM, law.hasArrived(distanceM: filteredM),
              altitudeReached(now: now) else { return nil }
        return Transition(to: .arrived, reason: .arrived)
    }

    /// On a fresh navigation solution, still flying (`FlyingToTarget.observeProgress`); a flight that lost ground
    /// drops its target.
    mutating func flyingToTargetProgress(distanceM: Double, now: MonotonicInstant) -> Transition? {
        guard case .flyingToTarget(var flying) = mode else { return nil }
        let transition = flying.observeProgress(distanceM: distanceM, now: now)
        mode = .flyingToTarget(flying)
        if transition != nil { clearTarget() }
        return transition
    }

    /// On a target that moved (beyond the arrival hysteresis): progress toward the old one says nothing about it.
    mutating func flyingToTargetMoved() {
        guard case .flyingToTarget(var flying) = mode else { return }
        flying.progress.reset()
        mode = .flyingToTarget(flying)
    }

    /// Its flight command: the position law near the target, the article's control law farther out.
    mutating func flyingToTargetCommand(_ flying: ControllerMode.FlyingToTarget, into command: inout FlightCommand,
                                        now: MonotonicInstant) {
        if navigationFresh(now: now), positionFresh(now: now),
           holdPosition(flying.arrival, into: &command, now: now) {
        } else {
            apply(targetSteering(now: now), to: &command, now: now)
        }
        holdAltitude(&command, now: now)
    }
}
