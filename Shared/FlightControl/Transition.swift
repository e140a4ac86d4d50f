import QuadProtocol

/// A change of mode, as a value: the mode handlers (`Modes/`) and the cross-cutting rules return one, and
/// `ControllerStateMachine.apply` performs it, the one place where the mode changes. The new mode comes with its
/// own data, so leaving a mode drops its timers by construction.
struct Transition: Sendable, Equatable {
    /// The activity entered.
    var activity: ControllerState.Activity
    /// Why (published as the state's reason).
    var reason: Reason
    /// A line to log with it, if the change needs saying beyond its reason.
    var log: ControllerAction?

    init(to activity: ControllerState.Activity, reason: Reason, log: ControllerAction? = nil) {
        self.activity = activity
        self.reason = reason
        self.log = log
    }
}
