/// The speeds a target is flown at: the vehicle link decides what a default cruise can be (issue 37 item 7).
extension ControllerStateMachine {
    /// Behind a link whose vehicle holds the ground velocity (mavlink-link): `autopilotCruiseSpeedMps` capped by
    /// `--max-speed`; nil elsewhere (the AR.Drone, or before any link said what it is) or when it is off.
    var autopilotCruiseMps: Double? {
        guard vehicleHoldsGroundVelocity, let autopilotMps = configuration.autopilotCruiseSpeedMps, autopilotMps > 0
        else { return nil }
        return min(autopilotMps, configuration.windCompensation.maxSpeedMps ?? autopilotMps)
    }

    /// The cruise of a target, and of a plan leg without a speed of its own, m/s: the autopilot cruise where it
    /// applies, else the configured tilt's speed in still air.
    var targetCruiseSpeedMps: Double { autopilotCruiseMps ?? configuration.cruiseSpeedMps }

    /// The fastest a plan's speed is flown: the configuration's limit, or the autopilot cruise where that is higher.
    var planSpeedLimitMps: Double { max(configuration.planSpeedLimitMps, targetCruiseSpeedMps) }

    /// The position law's gain for a target or a plan leg: faster behind an autopilot cruise.
    var targetPositionGainPerS: Double {
        autopilotCruiseMps == nil ? configuration.positionGainPerS : configuration.autopilotPositionGainPerS
    }
}
