import QuadProtocol

extension ControllerMode {
    /// Landing: the vehicle is asked to land and the controller waits for navdata to show it on the ground. No
    /// data of its own (the case `.landing` carries none): this names its behaviour. The flight (home, battery)
    /// stays until then. On entry: the target of the flight is dropped (`apply`).
    enum Landing {
        /// On navdata: on the ground, the flight is over.
        static func navdata(observed: ObservedFlight) -> Transition? {
            observed == .onGround ? Transition(to: .landed, reason: .landed) : nil
        }

        /// Its flight command: land.
        static func command(into command: inout FlightCommand) {
            command.refMode = .land
        }
    }
}
