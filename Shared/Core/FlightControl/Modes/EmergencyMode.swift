import Clocks
import QuadProtocol

extension ControllerMode {
    /// Motors cut.
    struct Emergency: Sendable, Equatable {
        /// A reset was accepted: emergencyRecover until navdata shows the bit cleared.
        var recovering = false
    }
}

/// Emergency: motors cut, from a command (anyone's, always) or the drone's own emergency bit. On entry: the
/// target is dropped (`enterEmergency`); a new emergency cancels a reset under way (`entering`).
extension ControllerStateMachine {
    /// On navdata without the emergency bit: only a reset leaves emergency, and only once navdata shows the bit
    /// cleared.
    func emergencyNavdata(_ emergency: ControllerMode.Emergency) -> Transition? {
        emergency.recovering ? Transition(to: .landed, reason: .resetComplete) : nil
    }

    /// Its flight command: cut the motors, or recover once a reset was accepted.
    func emergencyCommand(_ emergency: ControllerMode.Emergency, into command: inout FlightCommand) {
        command.refMode = emergency.recovering ? .emergencyRecover : .emergencyCutoff
    }

    /// On the reset command: hold emergencyRecover until navdata shows the emergency bit cleared.
    mutating func reset(now: MonotonicInstant) -> CommandAnswer {
        guard case .emergency(var emergency) = mode else {
            return ([refuse(kind: "command", reason: .resetRefusedNotInEmergency, now: now)], nil)
        }
        emergency.recovering = true
        mode = .emergency(emergency)
        return ([], .keeping(.emergency, reason: .reset))
    }
}
