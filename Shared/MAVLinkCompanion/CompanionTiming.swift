/// mavlink-link's time constants, in microseconds of a monotonic clock.
public struct CompanionTiming: Sendable, Equatable {
    /// One velocity setpoint this often (PX4 wants > 2 Hz to enter and stay in offboard; 20 Hz).
    public var setpointIntervalUs: Int64 = 50_000
    /// With no fresh flight command for this long the setpoints become zero velocity (hover).
    public var commandTimeoutUs: Int64 = 250_000
    /// No HEARTBEAT from the autopilot for this long: the link reports itself lost.
    public var heartbeatLostUs: Int64 = 3_000_000
    /// Our own HEARTBEAT (PX4 and ArduPilot watch it to detect a lost companion).
    public var heartbeatIntervalUs: Int64 = 1_000_000
    /// A COMMAND_LONG without COMMAND_ACK is resent (confirmation + 1) after this long …
    public var commandRetryUs: Int64 = 400_000
    /// … at most this many times in all, then reported failed.
    public var commandAttempts: Int = 5
    /// The link status is published on every change and at least this often.
    public var statusIntervalUs: Int64 = 1_000_000

    public init() {}
}
