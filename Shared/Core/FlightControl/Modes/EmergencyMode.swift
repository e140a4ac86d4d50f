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
/// target is dropped (`enterEmergency`); a new emergency cancels a reset under way (`entering`). Functions of its
/// data alone (it reads nothing of the controller).
extension ControllerMode.Emergency {
    /// On navdata without the emergency bit: only a reset leaves emergency, and only once navdata shows the bit
    /// cleared.
    func navdata() -> Transition? {
        recovering ? Transition(to: .landed, reason: .resetComplete) : nil
    }

    /// Its flight command: cut the motors, or recover once a reset was accepted.
    func command(into command: inout FlightCommand) {
        command.refMode = recovering ? .emergencyRecover : .emergencyCutoff
    }

    /// On the reset command (the controller refuses it outside emergency): hold emergencyRecover until navdata
    /// shows the emergency bit cleared.
    mutating func reset() -> Transition {
        recovering = true
        return .keeping(.emergency, reason: .reset)
    }
}
