import Clocks
import QuadProtocol

extension ControllerMode {
    /// On the ground, as navdata showed it.
    struct Landed: Sendable, Equatable {
        /// A flat trim was asked for: sent with the next flight command, then cleared.
        var flatTrimPending = false
    }
}

/// Landed. On entry: the flight is over (`apply` drops it with home and the failsafe timers).
extension ControllerStateMachine {
    /// On entry: nothing pending (a re-entry keeps what is).
    func landedEntry() -> ControllerMode.Landed {
        if case .landed(let landed) = mode { return landed }
        return ControllerMode.Landed()
    }

    /// On navdata: a drone seen flying while we command land is landing.
    func landedNavdata(observed: ObservedFlight) -> Transition? {
        guard observed == .airborne else { return nil }
        return Transition(to: .landing, reason: .droneAirborne)
    }

    /// Its flight command: land, with a flat trim once if one was asked for.
    mutating func landedCommand(_ landed: ControllerMode.Landed, into command: inout FlightCommand) {
        command.refMode = .land
        command.flatTrim = landed.flatTrimPending
        var sent = landed
        sent.flatTrimPending = false
        mode = .landed(sent)
    }

    /// On the flat trim command (only on the ground): sent with the next flight command.
    mutating func flatTrim(now: MonotonicInstant) -> CommandAnswer {
        guard case .landed(var landed) = mode else {
            return ([refuse(kind: "command", reason: .flatTrimRefusedNotLanded, now: now)], nil)
        }
        landed.flatTrimPending = true
        mode = .landed(landed)
        return ([], .keeping(.landed, reason: .flatTrim))
    }
}
