import Logging
import Mission
import QuadProtocol

/// What the controller asks its executable to do; the state machine itself performs nothing.
public enum ControllerAction: Sendable, Equatable {
    /// Publish on `flight/command` (every tick and every navigation update).
    case sendFlight(FlightCommand)
    /// Publish on `telemetry/controller` (retained); only when activity, reason, pilot or target changed.
    case publishState(ControllerState)
    /// An input was refused; `kind` is `target`, `command`, `claim`, `navigation` or `position`.
    case rejected(kind: String, reason: Reason)
    /// swift-log's level: the one log-level type of the project (the links' and the companion's actions use it too).
    case log(Logger.Level, String)
    /// Keep this on the board (nil: nothing to resume) so that a restarted controller goes on with the flight.
    case rememberFlight(FlightMemory?)
    /// Keep this accepted airspace on the board (atomically, with its checksum) before its status is published.
    case storeAirspace(AirspaceDefinition)
    /// Publish on `airspace/held` (retained): the airspace taken (zero zones: none), for mavlink-link's fence.
    case publishAirspaceHeld(AirspaceDefinition)
    /// Publish on `airspace/status` (retained): the airspace held, the last upload or target it refused.
    case publishAirspaceStatus(AirspaceStatus)
    /// Keep this accepted mission plan on the board (atomically, with its checksum) before it is acknowledged.
    case storeMission(MissionUpload)
    /// Keep the mission's progress on the board: a restarted controller resumes at its item.
    case persistMission(MissionProgressRecord)
    /// Publish on `mission/progress` (retained).
    case publishMissionProgress(MissionProgress)
    /// Publish on `mission/status` (retained): the plan held, the last upload refused.
    case publishMissionStatus(MissionStatus)
    /// Publish on `mission/held` (retained): the plan held (nil: none; the retained one is cleared), for
    /// mavlink-link's copy on the autopilot.
    case publishMissionHeld(MissionUpload?)
    /// Publish on `airspace/route` (retained): the way around keep-out zones flown now; none when a route ends.
    case publishAirspaceRoute(AirspaceRoutePlan)
    /// Build the paths' graph for this airspace on a thread of its own, then hand it to `pathPlannerBuilt`.
    case buildPathPlanner(PathPlannerRequest)
}
