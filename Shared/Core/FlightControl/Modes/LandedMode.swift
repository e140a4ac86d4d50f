import Clocks
import QuadProtocol

extension ControllerMode {
    /// On the ground, as navdata showed it.
    struct Landed: Sendable, Equatable {
        /// A flat trim was asked for: sent with the next flight command, then cleared.
        var flatTrimPending = false
    }
}

/// Landed: functions of its data and the event alone (it reads nothing else of the controller). On entry the
/// flight is over (`apply` drops it with home and the failsafe timers).
extension ControllerMode.Landed {
    /// On entry: nothing pending (a re-entry keeps what is).
    static func entering(continuing: Self?) -> Self {
        continuing ?? Self()
    }

    /// On navdata: a drone seen flying while we command land is landing.
    func navdata(observed: ObservedFlight) -> Transition? {
        guard observed == .airborne else { return nil }
        return Transition(to: .landing, reason: .droneAirborne)
    }

    /// Its flight command: land, with a flat trim once if one was asked for (sent: no longer pending).
    mutating func command(into command: inout FlightCommand) {
        command.refMode = .land
        command.flatTrim = flatTrimPending
        flatTrimPending = false
    }

    /// On the flat trim command (the controller refuses it off the ground): sent with the next flight command.
    mutating func flatTrim() -> Transition {
        flatTrimPending = true
        return .keeping(.landed, reason: .flatTrim)
    }
}
