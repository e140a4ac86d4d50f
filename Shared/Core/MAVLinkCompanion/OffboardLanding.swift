import Clocks

/// PX4: `land` flown in OFFBOARD down to the ground, then a disarm. PX4's own LAND lands "at current position" and
/// holds it with its biased velocity estimate: begun 0.08–0.74 m from the point, it disarmed 0.36–2.21 m from it
/// (2026-12-03), where a descent in OFFBOARD holding the point disarmed 0.21–0.29 m off (pymavlink probe on PX4
/// SIH, 2026-12-04, without the trim `HoverHold` adds). In OFFBOARD PX4's land detector flickers between landed and
/// in the air for seconds, so its own disarm-on-landing (COM_DISARM_LAND, 2 s landed) did not come in 15 s: the link
/// asks for a disarm, once a second, while PX4 says the vehicle is on the ground; PX4 refuses one unless it has
/// detected the landing itself. PX4's LAND (NAV_LAND) stays the way down whenever this one cannot go on: not in
/// OFFBOARD when the land came or since, or not down within `timeout`. ArduPilot keeps NAV_LAND (its LAND landed
/// 0.03–0.54 m from the point). Pure: the caller passes the time and what the autopilot reports.
struct OffboardLanding: Sendable {
    enum Step: Sendable, Equatable {
        /// Not this way: the autopilot's own LAND (a level, as before).
        case autopilotLand
        /// Keep descending in OFFBOARD.
        case descend
        /// On the ground: ask for a disarm now.
        case disarm
        /// On the ground, a disarm asked for less than `disarmInterval` ago; or already disarmed.
        case wait
    }

    /// When the descent in OFFBOARD began; nil before it, or when it cannot be this way.
    private(set) var startedAt: MonotonicInstant?
    /// The autopilot's LAND took over (for the rest of this land command).
    private(set) var handedOver = false
    private var lastDisarmRequest: MonotonicInstant?
    /// The autopilot accepted the disarm: the landing is over, before its HEARTBEAT says so.
    private(set) var disarmAccepted = false

    /// PX4's defaults: MPC_LAND_SPEED below MPC_LAND_ALT2, MPC_Z_V_AUTO_DN above MPC_LAND_ALT1, in between a line;
    /// its LAND descends the same way.
    static let landSpeedMps: Float = 0.7
    static let fastDescentMps: Float = 1.5
    static let slowBelowM: Float = 5
    static let fastAboveM: Float = 10
    /// Longer than a descent from 120 m takes at these speeds (84 s): a landing not over by then is PX4's LAND's.
    static let timeout = Duration.seconds(120)
    static let disarmInterval = Duration.seconds(1)

    /// The descent's speed at `altitudeM` above home.
    static func descentMps(altitudeM: Float) -> Float {
        guard altitudeM.isFinite, altitudeM > slowBelowM else { return landSpeedMps }
        guard altitudeM < fastAboveM else { return fastDescentMps }
        return landSpeedMps + (fastDescentMps - landSpeedMps) * (altitudeM - slowBelowM) / (fastAboveM - slowBelowM)
    }

    /// Whether the setpoints now descend (a landing under way in OFFBOARD, motors on).
    var isDescending: Bool { startedAt != nil && !handedOver && !disarmAccepted }

    mutating func disarmWasAccepted() { disarmAccepted = true }

    /// A new land command: nothing decided yet.
    mutating func reset() { self = OffboardLanding() }

    /// The next step of the land command in force. `airborne` is the autopilot's landed state; `armed` its motors.
    mutating func step(now: MonotonicInstant, px4: Bool, armed: Bool, inSetpointMode: Bool, airborne: Bool) -> Step {
        guard !handedOver else { return .autopilotLand }
        guard armed, !disarmAccepted else { return startedAt == nil ? .autopilotLand : .wait }
        guard let startedAt else {
            // The way down is decided once, where the land command finds the vehicle.
            guard px4, inSetpointMode, airborne else {
                handedOver = true
                return .autopilotLand
            }
            self.startedAt = now
            return .descend
        }
        guard inSetpointMode, now - startedAt < Self.timeout else {
            handedOver = true
            return .autopilotLand
        }
        guard !airborne else { return .descend }
        if let last = lastDisarmRequest, now - last < Self.disarmInterval { return .wait }
        lastDisarmRequest = now
        return .disarm
    }
}
