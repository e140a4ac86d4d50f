import FlightControl
import Mission
import QuadMQTT
import QuadProtocol
import QuadService

/// Each topic the controller listens to, and how its payload becomes an event of the state machine.
enum ControllerInput: String, CaseIterable, Sendable {
    case droneState = "drone-state"
    case position
    case navigation
    case target
    case command
    case claim
    case presence
    case beacon
    case airspace
    case missionUpload = "mission-upload"
    case missionCommand = "mission-command"

    /// Feeds this input into `inbox` (all inputs share the connection's one ordered queue).
    func feed(_ inbox: Inbox<ControllerService.Event>, from runtime: ServiceRuntime) throws(MQTTError) {
        let event: @Sendable (MQTTMessage, MonotonicInstant) -> ControllerService.Event = {
            .message(self, $0, receivedAt: $1)
        }
        switch self {
        case .droneState: try runtime.feed(inbox, Topics.droneState, event)
        case .position: try runtime.feed(inbox, Topics.position, event)
        case .navigation: try runtime.feed(inbox, Topics.navigation, event)
        case .target: try runtime.feed(inbox, Topics.target, event)
        case .command: try runtime.feed(inbox, Topics.command, event)
        case .claim: try runtime.feed(inbox, Topics.controlClaim, event)
        case .beacon: try runtime.feed(inbox, Topics.groundBeacon, event)
        case .airspace: try runtime.feed(inbox, Topics.airspace, event)
        case .missionUpload: try runtime.feed(inbox, Topics.missionUpload, event)
        case .missionCommand: try runtime.feed(inbox, Topics.missionCommand, event)
        case .presence: try inbox.feed(runtime.client, filter: Topics.statusFilter(drone: runtime.drone), qos: 1, event)
        }
    }

    /// `now`: the message's receipt (monotonic), which the machine ages it from.
    func feed(_ message: MQTTMessage, into machine: inout ControllerStateMachine,
        now: MonotonicInstant) throws -> [ControllerAction] {
        switch self {
        case .droneState: return machine.droneState(try DroneState(decoding: message.payload), now: now)
        case .position: return machine.position(try PositionFix(decoding: message.payload), now: now)
        case .navigation: return machine.navigation(try NavigationSolution(decoding: message.payload), now: now)
        case .target:
            // A JSON target gets the wall time of receipt as its (log-only) stamp; decisions use `now`.
            let target = try InboundTarget.decode(payload: message.payload, receivedAt: WallClock.now())
            return machine.target(target, retained: message.retain, now: now)
        case .command:
            let command = try InboundCommand.decode(payload: message.payload, receivedAt: WallClock.now())
            return machine.command(command, retained: message.retain, now: now)
        case .claim:
            let claim = try ControlClaim(decoding: message.payload)
            return machine.controlClaim(claim, retained: message.retain, now: now)
        case .beacon:
            let beacon = try GroundBeacon(decoding: message.payload)
            return machine.groundBeacon(senderId: beacon.senderId, stamp: WallInstant(us: beacon.timestampUs), now: now)
        case .airspace:
            // Validating zones is quick (the planner's graph, ~0.7 s, is never built here).
            return machine.airspace(try AirspaceDefinition(decoding: message.payload), store: true, now: now)
        case .missionUpload:
            // Retained: a restarted controller receives the plan it holds again, which changes nothing.
            return machine.missionUpload(try MissionUpload(decoding: message.payload), store: true, now: now)
        case .missionCommand:
            // A retained command would start or goto again at every reconnect: never acted on.
            guard !message.retain else { throw MissionCommandRefusal.retained }
            return machine.missionCommand(try InboundMissionCommand.decode(message.payload), now: now)
        case .presence:
            let status = try ServiceStatus(json: message.payload)
            let service = message.topic.split(separator: "/").last.map(String.init) ?? ""
            return machine.presence(serviceName: service, online: status.state == .online, now: now)
        }
    }
}

/// Why a mission command was not handed to the machine.
enum MissionCommandRefusal: Error, CustomStringConvertible {
    case retained
    var description: String { "a retained mission command is never acted on" }
}
