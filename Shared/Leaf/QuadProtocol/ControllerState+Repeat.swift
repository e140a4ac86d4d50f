/// How often drone-controller repeats its retained state when nothing changes: once a second while a flight is
/// under way (the distance changes as the drone moves), else every presence re-announce interval (a broker that
/// withholds retained messages from a wildcard subscription still shows the state that soon). A reader judges the
/// state's age from its receipt against this, never against the sender's wall stamp.
extension ControllerState.Activity {
    /// Taking off, in the air or landing: what the state says changes as the drone moves.
    public var isFlightUnderWay: Bool {
        switch self {
        case .takingOff, .hovering, .flyingToTarget, .arrived, .returningHome, .landing: true
        case .landed, .emergency, .unknown: false
        }
    }
}

extension ControllerState {
    /// The longest a running controller stays silent about a state with this activity.
    public static func repeatInterval(activity: Activity) -> Duration {
        activity.isFlightUnderWay ? .seconds(1) : .seconds(ServiceStatus.reannounceIntervalS)
    }
}
