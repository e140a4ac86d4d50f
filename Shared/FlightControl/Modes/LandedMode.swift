import QuadProtocol

extension ControllerMode {
    /// On the ground (or not known to be flying yet). The mode at start.
    struct Landed: Sendable, Equatable {
        /// A flat trim was asked for: sent with the next flight command, then cleared.
        var flatTrimPending = false
        /// `land` arrived before the first navdata of this run: obeyed as soon as navdata shows the drone in the
        /// air (cleared by any navdata).
        var landBeforeNavdata = false
    }
}

/// Landed. On entry: the flight is over (`apply` drops it with home and the failsafe timers).
extension ControllerStateMachine {
    /// On entry: nothing pending (a re-entry keeps what is).
    func landedEntry() -> ControllerMode.Landed {
        if case .landed(let landed) = mode { return landed }
        return ControllerMode.Landed()
    }

    /// On navdata: the first navdata of this run showing the drone in the air means this controller restarted
    /// mid-flight, and the remembered flight goes on (`resumeFlight`) unless a `land` came first.
    func resumesFlight(_ landed: ControllerMode.Landed, observed: ObservedFlight, firstObservation: Bool) -> Bool {
        observed == .airborne && firstObservation && !landed.landBeforeNavdata
    }

    /// On `land` before this run's first navdata: the drone may be in the air (a restart); the order stands for
    /// when navdata shows it.
    mutating func landedLandBeforeNavdata() {
        guard case .landed(var landed) = mode else { return }
        landed.landBeforeNavdata = true
        mode = .landed(landed)
    }

    /// After any navdata (its own handler has run): a `land` that waited for it has been obeyed or was moot.
    mutating func landedNavdataSeen() {
        guard case .landed(var landed) = mode, landed.landBeforeNavdata else { return }
        landed.landBeforeNavdata = false
        mode = .landed(landed)
    }

    /// On navdata, otherwise: a drone seen flying while we command land is landing.
    func landedNavdata(_ landed: ControllerMode.Landed, observed: ObservedFlight) -> Transition? {
        guard observed == .airborne else { return nil }
        return Transition(to: .landing, reason: landed.landBeforeNavdata ? .land : .droneAirborne)
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
    mutating func flatTrim() -> [ControllerAction] {
        guard case .landed(var landed) = mode else {
            return [refuse(kind: "command", reason: .flatTrimRefusedNotLanded)]
        }
        landed.flatTrimPending = true
        mode = .landed(landed)
        reason = .flatTrim
        return []
    }
}
