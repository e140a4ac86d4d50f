/// The speeds a target is flown at: the vehicle link decides what a default cruise can be (issue 37 item 7).
extension ControllerStateMachine {
    /// The cruise of a target, and of a plan leg without a speed of its own, m/s: behind a link whose vehicle holds
    /// the ground velocity (mavlink-link), `autopilotCruiseSpeedMps` capped by `--max-speed`; else (the AR.Drone,
    /// or before any link said what it is) the configured tilt's speed in still air.
    var targetCruiseSpeedMps: Double {
        guard vehicleHoldsGroundVelocity, let autopilotMps = configuration.autopilotCruiseSpeedMps, autopilotMps > 0
        else { return configuration.cruiseSpeedMps }
        return min(autopilotMps, configuration.windCompensation.maxSpeedMps ?? autopilotMps)
    }

    /// The fastest a plan's speed is flown: the configuration's limit, or the autopilot cruise where that is higher.
    var planSpeedLimitMps: Double { max(configuration.planSpeedLimitMps, targetCruiseSpeedMps) }
}
