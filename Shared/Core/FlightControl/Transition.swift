import Clocks
import QuadProtocol

/// A change of mode, as a value: the mode handlers (`Modes/`) and the cross-cutting rules return one, and
/// `ControllerStateMachine.apply` performs it, the one place where the mode changes. The new mode comes with its
/// own data, so leaving a mode drops its timers by construction; what the entry needs beyond the activity (a
/// return's goal and altitude) travels in the transition, never as a fix-up
/// after `apply`.
struct Transition: Sendable, Equatable {
    /// The activity entered.
    var activity: ControllerState.Activity
    /// Why (published as the state's reason).
    var reason: Reason
    /// A line to log with it, if the change needs saying beyond its reason.
    var log: ControllerAction?
    /// Entering `.returningHome`: where the return ends (a return re-aimed keeps its start and progress).
    var returnGoal: ReturnGoal?
    /// The altitude the flight holds from here (a return's altitude); nil leaves it as it is.
    var wantedAltitudeM: Double?
    /// The mode stays as it is (no entry, its data kept); only the reason changes (`keeping(reason:)`).
    var keepsMode = false

    init(to activity: ControllerState.Activity, reason: Reason, log: ControllerAction? = nil) {
        self.activity = activity
        self.reason = reason
        self.log = log
    }

    /// No change of mode, a new reason: an order taken that moves nothing (`hover` while taking off), a rule that
    /// has its say without a new activity (a pilot lost while the drone is already going home).
    static func keeping(_ activity: ControllerState.Activity, reason: Reason,
                        log: ControllerAction? = nil) -> Transition {
        var transition = Transition(to: activity, reason: reason, log: log)
        transition.keepsMode = true
        return transition
    }

    /// A return home (or back inside the fence) toward `goal`, at `altitudeM`.
    static func returningHome(goal: ReturnGoal, reason: Reason, altitudeM: Double,
                              log: ControllerAction? = nil) -> Transition {
        var transition = Transition(to: .returningHome, reason: reason, log: log)
        transition.returnGoal = goal
        transition.wantedAltitudeM = altitudeM
        return transition
    }
}
