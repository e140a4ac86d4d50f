import QuadProtocol

extension ControllerMode {
    /// Flying back toward home (the `return` command, the failsafes that go home, the geofence).
    struct ReturningHome: Sendable, Equatable {
        /// Where this return ends (re-aimed by a later `startReturn`).
        var goal: ReturnGoal
        let startedAtUs: Int64
        /// Does the return get closer?
        var progress: ProgressWatch
        /// Arrival over home, filtered like a target's.
        var homeArrival: ArrivalFilter
    }
}

/// Returning home. On entry: the target is dropped and the return altitude set (`startReturn`); each position fix
/// judges arrival and progress (`followReturn`).
extension ControllerStateMachine {
    /// Its flight command: brake first (hover), then steer home; near home, the position law settles it.
    mutating func returningHomeCommand(_ returning: ControllerMode.ReturningHome, into command: inout FlightCommand,
                                       nowUs: Int64) {
        if returning.goal == .home, positionFresh(nowUs: nowUs),
           let distanceM = returning.homeArrival.filteredDistanceM, distanceM < law.arrivalRadiusM / 2 {
            // Over home, coming down to the approach altitude: the drone's own hover, as `.arrived`. An
            // autopilot then holds its position itself; under the position law's small tilts the real PX4
            // drifted 0.2 → 0.6 m in the descent and landed 0.8–1.4 m off.
        } else if nowUs &- returning.startedAtUs >= microseconds(fromSeconds: configuration.geofenceBrakeS),
           returning.goal == .home, positionFresh(nowUs: nowUs),
           holdPosition(returning.homeArrival, into: &command, nowUs: nowUs) {
        } else {
            apply(returnHomeSteering(returning, nowUs: nowUs), to: &command, nowUs: nowUs)
        }
        holdAltitude(&command, nowUs: nowUs)
    }
}
