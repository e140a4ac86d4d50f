import Clocks
import MAVLink
import QuadProtocol

/// The latest flight command and whether it is still fresh; turns its PCMD fractions into a body-frame velocity
/// setpoint. A stale or non-progressive command is a zero-velocity setpoint (hover), never silence.
struct SetpointPilot: Sendable {
    private(set) var command: FlightCommand?
    private var freshness = CommandFreshness()
    var lastCommandUs: Int64? { freshness.lastCommand?.us }
    /// True from the command timeout until the next command.
    var fallbackHover: Bool { freshness.isStale }

    mutating func accept(_ newCommand: FlightCommand, nowUs: Int64) {
        command = newCommand
        freshness.received(now: MonotonicInstant(us: nowUs))
    }

    func timeoutDeadlineUs(timeout: Duration) -> Int64? { freshness.deadline(timeout: timeout)?.us }

    /// Switches to hover once the command is older than `timeout`; true when that just happened.
    mutating func checkTimeout(nowUs: Int64, timeout: Duration) -> Bool {
        freshness.checkTimeout(now: MonotonicInstant(us: nowUs), timeout: timeout)
    }

    mutating func forceHover() { freshness.expire() }

    /// Forward, right, down (m/s) and yaw rate (rad/s). AR.Drone signs: negative pitch = forward, positive roll =
    /// right, positive gaz = climb, positive yaw = clockwise (= positive yaw rate in NED).
    func velocity(scale: VelocityScale) -> BodyVelocity {
        guard let command, command.progressive, command.refMode == .fly, !fallbackHover else { return .zero }
        let values = [command.pitchFrac, command.rollFrac, command.gazFrac, command.yawFrac]
        guard values.allSatisfy(\.isFinite) else { return .zero }
        let c = values.map { min(1, max(-1, $0)) }
        return BodyVelocity(forwardMps: -c[0] * scale.maxHorizontalMps, rightMps: c[1] * scale.maxHorizontalMps,
                            downMps: -c[2] * scale.maxClimbMps,
                            yawRateRadps: c[3] * scale.maxYawRateDegPerS * .pi / 180)
    }

    func isMoving(scale: VelocityScale) -> Bool { velocity(scale: scale) != .zero }
}

/// One body-frame velocity setpoint; Equatable so the link can tell a changed setpoint from a repeated one.
struct BodyVelocity: Sendable, Equatable {
    var forwardMps: Float
    var rightMps: Float
    var downMps: Float
    var yawRateRadps: Float

    static let zero = BodyVelocity(forwardMps: 0, rightMps: 0, downMps: 0, yawRateRadps: 0)
}
