import QuadProtocol

/// Landing: the vehicle is asked to land and the controller waits for navdata to show it on the ground. No data
/// of its own; the flight (home, battery) stays until then. On entry: the target of the flight is dropped
/// (`apply`).
extension ControllerStateMachine {
    /// On navdata: on the ground, the flight is over.
    func landingNavdata(observed: ObservedFlight) -> Transition? {
        observed == .onGround ? Transition(to: .landed, reason: .landed) : nil
    }

    /// Its flight command: land.
    func landingCommand(into command: inout FlightCommand) {
        command.refMode = .land
    }
}
