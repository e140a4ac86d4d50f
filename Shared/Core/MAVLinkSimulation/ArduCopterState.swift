/// What the ArduCopter face keeps besides the airframe: the flight mode, the parameters, and the GUIDED takeoff in
/// progress (the one a setpoint cancels).
public struct ArduCopterState: Sendable, Equatable {
    public internal(set) var mode = ArduCopterMode.stabilize
    public var parameters = ArduCopterParameters()
    /// A GUIDED takeoff is climbing (NAV_TAKEOFF accepted, altitude not yet reached, no setpoint since).
    public internal(set) var isTakingOff = false
    /// GUID_TIMEOUT ran out: the copter stopped and holds until the next setpoint.
    var guidedStopped = false
    /// "EKF3 IMU0 is using GPS" said (once, when the position estimate is there).
    var saidPositionReady = false

    public init() {}
}
