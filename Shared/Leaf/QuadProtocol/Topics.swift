/// MQTT delivery guarantee for a topic.
public enum QoS: Int32, Sendable {
    case atMostOnce = 0
    case atLeastOnce = 1
}

/// One row of the topic table: the path below `quad/<drone-id>/`, the payload type, QoS and retain flag.
public struct TopicSpec<Payload>: Sendable {
    public let path: String
    public let qos: QoS
    public let retain: Bool
    public let summary: String

    /// The full topic for one drone, e.g. `quad/drone1/target`.
    public func topic(for drone: DroneID) -> String { "quad/\(drone.rawValue)/\(path)" }
    /// The filter that matches this topic for every drone, e.g. `quad/+/target`.
    public var anyDroneFilter: String { "quad/+/\(path)" }
}

/// The single source of truth for every topic on the bus. No other file spells a topic string.
public enum Topics {
    // User-facing (fixed by the spec).
    public static let target = TopicSpec<Target>(
        path: "target", qos: .atLeastOnce, retain: false, summary: "where to fly (ground → drone)")
    public static let command = TopicSpec<Command>(
        path: "command", qos: .atLeastOnce, retain: false, summary: "takeoff, land, hover, emergency, reset, flat-trim")
    // Telemetry (drone → ground).
    public static let droneState = TopicSpec<DroneState>(
        path: "telemetry/drone", qos: .atMostOnce, retain: false, summary: "navdata summary, every packet")
    public static let position = TopicSpec<PositionFix>(
        path: "telemetry/position", qos: .atMostOnce, retain: false, summary: "GPS fix of the drone")
    public static let navigation = TopicSpec<NavigationSolution>(
        path: "telemetry/navigation", qos: .atMostOnce, retain: false, summary: "distance and direction to target")
    public static let controllerState = TopicSpec<ControllerState>(
        path: "telemetry/controller", qos: .atLeastOnce, retain: true, summary: "controller activity and reason")
    public static let linkStatus = TopicSpec<LinkStatus>(
        path: "telemetry/link", qos: .atLeastOnce, retain: true, summary: "UDP link health")
    // Internal.
    public static let flightCommand = TopicSpec<FlightCommand>(
        path: "flight/command", qos: .atMostOnce, retain: false, summary: "REF + PCMD for drone-link (controller only)")
    public static let controlClaim = TopicSpec<ControlClaim>(
        path: "pilot/claim", qos: .atLeastOnce, retain: false, summary: "pilot control claims and releases")
    public static let groundBeacon = TopicSpec<GroundBeacon>(
        path: "ground/beacon", qos: .atMostOnce, retain: false,
        summary: "the ground's heartbeat through the bridge (its silence = ground link lost)")
    // Airspace (issue 38). The upload is not retained: the board's copy under its state directory is the one
    // that counts (a restarted controller reloads it), and a retained upload would be a second copy on the broker
    // that outlives the board's, is re-applied on every reconnect, over a board that was given another one since,
    // and goes to every subscriber. The answer is retained like the controller state, so `airspace show` reads
    // it at any time and an upload's acknowledgement waits for nothing but a changed checksum.
    public static let airspace = TopicSpec<AirspaceDefinition>(
        path: "airspace", qos: .atLeastOnce, retain: false,
        summary: "zones, ceiling, floor and margin to keep (ground → controller)")
    public static let airspaceStatus = TopicSpec<AirspaceStatus>(
        path: "airspace/status", qos: .atLeastOnce, retain: true,
        summary: "the airspace the controller holds (checksum, zones) and its last refusals (controller → all)")
    /// The held airspace itself, retained: what mavlink-link uploads to the autopilot as its fence, and what a
    /// ground tool or the map draws. Zero zones: none held (the circle around home applies).
    public static let airspaceHeld = TopicSpec<AirspaceDefinition>(
        path: "airspace/held", qos: .atLeastOnce, retain: true,
        summary: "the airspace the controller holds (controller → all)")
    /// The autopilot's own fence, read back by mavlink-link: `accepted` when it is the held airspace, `uploadRefusal`
    /// with why not (refused, no answer, differs) or what else is off (a fence parameter not as set).
    public static let airspaceFence = TopicSpec<AirspaceStatus>(
        path: "airspace/fence", qos: .atLeastOnce, retain: true,
        summary: "whether the autopilot's own fence holds the held airspace (mavlink-link → all)")
    /// The way the controller flies around keep-out zones (a target's or the return's), retained: what `status`
    /// prints and the map draws before the drone flies it. Purpose none: no route (written when one ends).
    public static let airspaceRoute = TopicSpec<AirspaceRoutePlan>(
        path: "airspace/route", qos: .atLeastOnce, retain: true,
        summary: "the controller's planned way around keep-out zones (controller → all; none: no route)")

    // Flight-log sync (ground telemetry-logger ↔ board telemetry-logger, across the bridge): byte layouts in
    // PROTOCOL.md "Log sync", codec in Shared/Core/LogSync. QoS 1 both ways: a lost request or chunk costs a timeout.
    public static let logSyncRequest = TopicSpec<LogSyncRequestPayload>(
        path: "log/sync/request", qos: .atLeastOnce, retain: false,
        summary: "sequence ranges a ground logger misses (ground → board logger)")
    /// The answers go to `log/sync/response/<requester>`, one level per requester, so several ground tools can
    /// ask at once and each reads only its own answers.
    public static let logSyncResponse = TopicSpec<LogSyncResponsePayload>(
        path: "log/sync/response", qos: .atLeastOnce, retain: false,
        summary: "the board log's records for one request, in chunks (board logger → requester)")
    /// `quad/<id>/log/sync/response/<requester>`.
    public static func logSyncResponse(drone: DroneID, requester: String) -> String {
        "\(logSyncResponse.topic(for: drone))/\(requester)"
    }

    // Missions (issue 37; drone-controller runs them): byte layouts in PROTOCOL.md "Missions", codec
    // in Shared/Core/Mission beside the plan it carries. QoS 1 throughout: a lost plan or command costs a flight.
    /// Retained: the plan loaded on the drone stays on its broker, for a restarted board service and for any ground
    /// tool to compare checksums with; a plan never flies by itself, only a start addressed to its checksum does.
    public static let missionUpload = TopicSpec<MissionUploadPayload>(
        path: "mission/upload", qos: .atLeastOnce, retain: true,
        summary: "the mission plan for the board (ground → board; the plan loaded stays retained)")
    /// Not retained: a retained start or goto would be acted on again at every reconnect.
    public static let missionCommand = TopicSpec<MissionCommandPayload>(
        path: "mission/command", qos: .atLeastOnce, retain: false,
        summary: "start, pause, resume, abort, goto N, addressed to a plan's checksum (ground → board)")
    /// Retained, like the controller's state: whoever connects sees at once where the mission is.
    public static let missionProgress = TopicSpec<MissionProgressPayload>(
        path: "mission/progress", qos: .atLeastOnce, retain: true,
        summary: "current item, items reached, what is left (board → ground)")
    /// Retained: the plan held and the last upload refused, with the item and why (the ground prints it).
    public static let missionStatus = TopicSpec<MissionStatusPayload>(
        path: "mission/status", qos: .atLeastOnce, retain: true,
        summary: "the plan held, the last upload refused with its item and why (board → ground)")
    /// The plan the controller holds, retained, in the upload's layout: what mavlink-link keeps on the autopilot as
    /// its own mission. An empty payload (the retained message cleared): none held.
    public static let missionHeld = TopicSpec<MissionUploadPayload>(
        path: "mission/held", qos: .atLeastOnce, retain: true,
        summary: "the plan the controller holds (controller → mavlink-link; empty: none)")
    /// The autopilot's own mission, read back by mavlink-link, in the status layout: `held` the plan's checksum
    /// when it is the board's plan, the refusal why not (refused, no answer, differs).
    public static let missionAutopilot = TopicSpec<MissionStatusPayload>(
        path: "mission/autopilot", qos: .atLeastOnce, retain: true,
        summary: "whether the autopilot's own mission holds the board's plan (mavlink-link → all)")

    /// Presence of each service, one level below per service: `status/<service>` (`status(service:drone:)`).
    public static let presence = TopicSpec<ServiceStatus>(
        path: "status", qos: .atLeastOnce, retain: true,
        summary: "presence: retained JSON text, online while running, offline after it stops or dies (Last Will)")
    /// One service's presence topic, e.g. `quad/drone1/status/navigator`.
    public static func status(service: String, drone: DroneID) -> String { "\(presence.topic(for: drone))/\(service)" }
    /// Every service's presence for one drone, including location-broadcasters one level deeper.
    public static func statusFilter(drone: DroneID) -> String { "\(presence.topic(for: drone))/#" }
    /// Every drone's presence (e.g. which drones have a drone-controller, for "did you mean" hints). It contains
    /// `statusFilter(drone:)`: subscribe to one or the other on a connection, never both (overlapping filters).
    public static let allStatusFilter = "\(presence.anyDroneFilter)/#"
    /// Several location-broadcasters may run at once: each one's presence lives at
    /// `status/location-broadcaster/<sender-id>`, so the bridge and the ACL can match them all with one pattern.
    /// The controller knows a pilot by the last level (its sender id).
    public static func broadcasterPresenceName(senderId: String) -> String { "location-broadcaster/\(senderId)" }
    /// Everything for one drone, e.g. for `mosquitto_sub -t 'quad/drone1/#'`.
    public static func all(drone: DroneID) -> String { "quad/\(drone.rawValue)/#" }

    /// Where `telemetry-logger replay` publishes by default: `replay/quad/<id>/…`. No service subscribes below
    /// it, so a replayed `takeoff` or `emergency` never reaches a live controller.
    public static let replayRoot = "replay"
    /// A recorded topic moved under the replay root, e.g. `replay/quad/drone1/command`.
    public static func replayed(_ topic: String) -> String { "\(replayRoot)/\(topic)" }
    /// Everything replayed, for `mosquitto_sub -t 'replay/#'`.
    public static let replayedEverything = "\(replayRoot)/#"
}

/// A drone id as used in topics: `[a-z0-9-]{1,32}`.
public struct DroneID: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String
    public static let `default` = DroneID(validated: "drone1")

    public init?(rawValue: String) {
        guard (1...32).contains(rawValue.utf8.count),
              rawValue.utf8.allSatisfy({ ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D })
        else { return nil }
        self.rawValue = rawValue
    }

    private init(validated: String) { rawValue = validated }
    public var description: String { rawValue }

    /// Extracts the drone id from a topic such as `quad/drone1/telemetry/drone`.
    public init?(topic: String) {
        let parts = topic.split(separator: "/", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2, parts[0] == "quad" else { return nil }
        self.init(rawValue: String(parts[1]))
    }
}

/// Payload markers for the log-sync topics: their binary layouts (PROTOCOL.md "Log sync") carry flight-log records,
/// so the codec lives with the log format in Shared/Core/LogSync (`SyncRequest`, `SyncResponse`).
public enum LogSyncRequestPayload {}
public enum LogSyncResponsePayload {}

/// Payload markers for the mission topics: their layouts (PROTOCOL.md "Missions") carry the mission plan, so the
/// codec lives with the plan in Shared/Core/Mission (`MissionUpload`, `MissionCommand`, `MissionProgress`,
/// `MissionStatus`).
public enum MissionUploadPayload {}
public enum MissionCommandPayload {}
public enum MissionProgressPayload {}
public enum MissionStatusPayload {}
