/// mavlink-link's time constants, in microseconds of a monotonic clock.
public struct CompanionTiming: Sendable, Equatable {
    /// One velocity setpoint this often (PX4 wants > 2 Hz to enter and stay in offboard; 20 Hz).
    public var setpointIntervalUs: Int64 = 50_000
    /// A changed setpoint (new flight command, command timeout) goes out at once instead of with the next 20 Hz
    /// tick, within a budget: one per `changedSetpointIntervalUs` on average (50 Hz), up to `changedSetpointBurst`
    /// back to back. The controller's 30 Hz commands plus one per navigation update stay under it, so each goes out
    /// at once (a fixed 20 ms gap instead held the command for a new target behind the tick's command just sent:
    /// p99 22 ms in `make bench-mavlink`); a flood of commands gets at most 50/s (+ the burst) to the autopilot.
    /// 50 Hz is within what PX4 offboard and ArduPilot GUIDED take; ~65-byte frames at 50 Hz are ~3.3 kB/s, a few
    /// % of a 921600-baud companion serial port. A change over budget goes out when the budget allows, not later.
    public var changedSetpointIntervalUs: Int64 = 20_000
    public var changedSetpointBurst: Int = 3
    /// With no fresh flight command for this long the setpoints become zero velocity (hover).
    public var commandTimeoutUs: Int64 = 250_000
    /// With no flight command at all for this long while the vehicle flies (the controller is gone, not merely
    /// late), the autopilot's own return-to-launch takes over: it needs nothing from the board. 0 = never (hold the
    /// position until the autopilot's own failsafes, e.g. its low battery, act).
    public var orphanReturnUs: Int64 = 30_000_000
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
