/// mavlink-link's time constants, on a monotonic clock.
public struct CompanionTiming: Sendable, Equatable {
    /// One velocity setpoint this often (PX4 wants > 2 Hz to enter and stay in offboard; 20 Hz).
    public var setpointInterval: Duration = .milliseconds(50)
    /// A changed setpoint (new flight command, command timeout) goes out at once instead of with the next 20 Hz
    /// tick, within a budget: one per `changedSetpointInterval` on average (50 Hz), up to `changedSetpointBurst`
    /// back to back. The controller's 30 Hz commands plus one per navigation update stay under it, so each goes out
    /// at once (a fixed 20 ms gap instead held the command for a new target behind the tick's command just sent:
    /// p99 22 ms in `make bench-mavlink`); a flood of commands gets at most 50/s (+ the burst) to the autopilot.
    /// 50 Hz is within what PX4 offboard and ArduPilot GUIDED take; ~65-byte frames at 50 Hz are ~3.3 kB/s, a few
    /// % of a 921600-baud companion serial port. A change over budget goes out when the budget allows, not later.
    public var changedSetpointInterval: Duration = .milliseconds(20)
    public var changedSetpointBurst: Int = 3
    /// With no fresh flight command for this long the setpoints become zero velocity (hover).
    public var commandTimeout: Duration = .milliseconds(250)
    /// With no flight command at all for this long while the vehicle flies (the controller is gone, not merely
    /// late), the autopilot's own return-to-launch takes over: it needs nothing from the board. Zero = never (hold the
    /// position until the autopilot's own failsafes, e.g. its low battery, act).
    public var orphanReturn: Duration = .seconds(30)
    /// No HEARTBEAT from the autopilot for this long: the link reports itself lost.
    public var heartbeatLost: Duration = .seconds(3)
    /// Our own HEARTBEAT (PX4 and ArduPilot watch it to detect a lost companion).
    public var heartbeatInterval: Duration = .seconds(1)
    /// A COMMAND_LONG without COMMAND_ACK is resent (confirmation + 1) after this long …
    public var commandRetry: Duration = .milliseconds(400)
    /// … at most this many times in all, then reported failed.
    public var commandAttempts: Int = 5
    /// The link status is published on every change and at least this often.
    public var statusInterval: Duration = .seconds(1)

    public init() {}
}
