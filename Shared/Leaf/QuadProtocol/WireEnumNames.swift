/// Names used for enum values in the JSON view (snake_case of the case name; commands use their word).
extension MessageType {
    public var jsonName: String {
        switch self {
        case .target: "target"
        case .command: "command"
        case .navigationSolution: "navigation_solution"
        case .flightCommand: "flight_command"
        case .droneState: "drone_state"
        case .positionFix: "position_fix"
        case .controllerState: "controller_state"
        case .linkStatus: "link_status"
        case .controlClaim: "control_claim"
        case .groundBeacon: "ground_beacon"
        case .airspaceDefinition: "airspace_definition"
        case .airspaceStatus: "airspace_status"
        case .airspaceRoutePlan: "airspace_route_plan"
        }
    }
}

extension ControlClaim.Action {
    public var jsonName: String { self == .claim ? "claim" : "release" }
}

extension FlightCommand.RefMode {
    public var jsonName: String {
        switch self {
        case .land: "land"
        case .fly: "fly"
        case .emergencyCutoff: "emergency_cutoff"
        case .emergencyRecover: "emergency_recover"
        }
    }
}

extension DroneState.ControlState {
    public var jsonName: String {
        switch self {
        case .unknown: "unknown"
        case .initializing: "initializing"
        case .landed: "landed"
        case .flying: "flying"
        case .hovering: "hovering"
        case .test: "test"
        case .takingOff: "taking_off"
        case .goingToFix: "going_to_fix"
        case .landing: "landing"
        case .looping: "looping"
        }
    }
}

extension PositionFix.Source {
    public var jsonName: String {
        switch self {
        case .droneGPS: "drone_gps"
        case .gpsd: "gpsd"
        case .manual: "manual"
        }
    }
}

/// The one table of controller activity names; every other spelling derives from it.
extension ControllerState.Activity {
    /// snake_case, as in the JSON view and the controller's log: `taking_off`.
    public var jsonName: String {
        switch self {
        case .landed: "landed"
        case .takingOff: "taking_off"
        case .hovering: "hovering"
        case .flyingToTarget: "flying_to_target"
        case .arrived: "arrived"
        case .landing: "landing"
        case .emergency: "emergency"
        case .returningHome: "returning_home"
        case .unknown: "unknown"
        }
    }

    /// The words joined by `separator`: " " for people (`taking off` in plots), "-" on the command line
    /// (`taking-off`, as `location-broadcaster status` prints and `--until` accepts).
    public func name(separator: Character) -> String {
        String(jsonName.map { $0 == "_" ? separator : $0 })
    }
}

extension LinkStatus.Reason {
    public var jsonName: String {
        switch self {
        case .ok: "ok"
        case .navdataLost: "navdata_lost"
        case .commandTimeout: "command_timeout"
        case .configuring: "configuring"
        }
    }
}

extension LinkStatus.AutopilotCommand {
    public var jsonName: String {
        switch self {
        case .arm: "arm"
        case .disarm: "disarm"
        case .forceDisarm: "force_disarm"
        case .takeoff: "takeoff"
        case .land: "land"
        case .setMode: "set_mode"
        case .setMessageInterval: "set_message_interval"
        }
    }
}

extension LinkStatus.CommandResult {
    public var jsonName: String {
        switch self {
        case .accepted: "accepted"
        case .temporarilyRejected: "temporarily_rejected"
        case .denied: "denied"
        case .unsupported: "unsupported"
        case .failed: "failed"
        case .inProgress: "in_progress"
        case .cancelled: "cancelled"
        case .noAnswer: "no_answer"
        }
    }
}
