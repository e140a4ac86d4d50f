import Clocks
import QuadProtocol

extension ControllerMode {
    /// Not established: the controller started and no navdata has told it yet whether the drone flies. The mode
    /// at start. Published as `unknown`, never as `landed`: a controller restarted under a flying drone that said
    /// "landed" released a script waiting for the landing. Nothing is flown from here (no flight command is sent
    /// before the first navdata) and the previous run's flight memory is kept as it is.
    struct Unknown: Sendable, Equatable {
        /// `land` arrived before the first navdata: obeyed as soon as navdata shows the drone in the air.
        var landBeforeNavdata = false
    }
}

/// Unknown. Left on the first navdata, for the mode navdata shows: on the ground → landed; in the air → the
/// remembered flight resumed (`resumeFlight`), or landing if `land` came first; landing → landing.
extension ControllerStateMachine {
    /// On the first navdata (without the emergency bit, which `droneState` handles first).
    mutating func unknownNavdata(_ unknown: ControllerMode.Unknown, observed: ObservedFlight,
                                 now: MonotonicInstant) -> Transition? {
        switch observed {
        case .onGround: return Transition(to: .landed, reason: .droneLanded)
        case .landing: return Transition(to: .landing, reason: unknown.landBeforeNavdata ? .land : .droneLanding)
        case .airborne, .takingOff:
            if unknown.landBeforeNavdata { return Transition(to: .landing, reason: .land) }
            return resumeFlight(now: now)
        // Navdata that does not say (an AR.Drone's unknown control state): still not established.
        case .unknown: return nil
        }
    }

    /// On `land` before the first navdata: the drone may be in the air (a restart); the order stands for when
    /// navdata shows it.
    mutating func unknownLand() {
        guard case .unknown(var unknown) = mode else { return }
        unknown.landBeforeNavdata = true
        mode = .unknown(unknown)
    }
}
