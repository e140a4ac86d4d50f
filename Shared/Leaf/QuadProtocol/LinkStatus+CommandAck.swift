extension LinkStatus {
    /// The last command the link sent to an autopilot and how it was answered (MAVLink COMMAND_ACK, or none after
    /// every retry). The ground sees a refused takeoff here instead of only in the link's log.
    public struct CommandAck: Sendable, Equatable {
        public var command: AutopilotCommand
        public var result: CommandResult
        /// Time since the answer (or since the link gave up), at the link's publish, on its monotonic clock.
        public var ageMs: UInt32

        public init(command: AutopilotCommand, result: CommandResult, ageMs: UInt32) {
            self.command = command
            self.result = result
            self.ageMs = ageMs
        }
    }

    /// The commands a link sends on its own (wire values; never reuse or renumber).
    public enum AutopilotCommand: UInt8, Sendable, CaseIterable {
        case arm = 1
        case disarm = 2
        /// Disarm that skips the autopilot's checks: the motors stop, even in the air (emergency).
        case forceDisarm = 3
        case takeoff = 4
        case land = 5
        /// A flight mode change (PX4 OFFBOARD or hold, ArduPilot GUIDED or LOITER).
        case setMode = 6
        /// A telemetry stream rate request.
        case setMessageInterval = 7
    }

    /// MAV_RESULT, plus `noAnswer` (wire values of this protocol, not MAVLink's).
    public enum CommandResult: UInt8, Sendable, CaseIterable {
        case accepted = 1
        case temporarilyRejected = 2
        case denied = 3
        case unsupported = 4
        case failed = 5
        case inProgress = 6
        case cancelled = 7
        /// No answer after every retry.
        case noAnswer = 8

        /// The command was refused or lost: what an operator must notice.
        public var isRefusal: Bool { self != .accepted && self != .inProgress }
    }
}
