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
/// remembered flight resumed (the controller's `resumeFlight`, asked for by the step), or landing if `land` came
/// first; landing → landing. Functions of its data and the event alone (it reads nothing else of the controller).
extension ControllerMode.Unknown {
    /// What the first navdata asks of the controller: a transition, or the remembered flight resumed.
    struct Step: Equatable {
        var transition: Transition?
        var resumesFlight = false
    }

    /// On the first navdata (without the emergency bit, which `droneState` handles first).
    func navdata(observed: ObservedFlight) -> Step {
        switch observed {
        case .onGround: return Step(transition: Transition(to: .landed, reason: .droneLanded))
        case .landing:
            return Step(transition: Transition(to: .landing, reason: landBeforeNavdata ? .land : .droneLanding))
        case .airborne, .takingOff:
            if landBeforeNavdata { return Step(transition: Transition(to: .landing, reason: .land)) }
            return Step(resumesFlight: true)
        // Navdata that does not say (an AR.Drone's unknown control state): still not established.
        case .unknown: return Step()
        }
    }

    /// On `land` before the first navdata: the drone may be in the air (a restart); the order stands for when
    /// navdata shows it.
    mutating func land() {
        landBeforeNavdata = true
    }
}
