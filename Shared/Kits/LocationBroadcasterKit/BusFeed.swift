import GroundStation
import Logging
import Mission
import QuadMQTT
import QuadProtocol
import QuadService
import Synchronization

/// What the broadcaster hears from the drone: the latest telemetry of each kind, and every controller state and
/// presence change in order for the consumers that must not miss one (route, commands, pilot arbitration).
/// Undecodable payloads are ignored: they come from outside.
final class BusFeed: Sendable {
    enum Event: Sendable {
        case controller(ControllerState, retained: Bool)
        case presence(name: String, status: ServiceStatus)
        case drone(DroneState)
        case link(LinkStatus)
        case navigation(NavigationSolution)
    }

    struct Latest: Sendable {
        var controller: ControllerState?
        var drone: DroneState?
        var link: LinkStatus?
        var navigation: NavigationSolution?
        var position: PositionFix?
        /// What the controller holds of the airspace and its last airspace refusals (retained).
        var airspace: AirspaceStatus?
        /// The controller's way around keep-out zones (retained; none: no route).
        var route: AirspaceRoutePlan?
        /// The mission the board holds and where it stands (retained).
        var mission: MissionProgress?
        /// The plan the board holds and the last upload it refused (retained).
        var missionStatus: MissionStatus?
        /// Whether a MAVLink vehicle's autopilot holds the plan as its own mission (mavlink-link, retained).
        var autopilotMission: MissionStatus?
        /// Board clock minus this laptop's, from telemetry stamps (display only).
        var clockOffset: Duration?
    }

    private struct State {
        var latest = Latest()
        var presences: [String: ServiceStatus] = [:]
        /// Drone id → whether its drone-controller is online (only with `controllers: true`).
        var controllers: [String: Bool] = [:]
        var inboxes: [Inbox<Event>] = []
        var clock = ClockOffsetEstimator()
    }

    private let state = Mutex(State())

    /// Subscribes on `client` (now if connected, and after every reconnect) and decodes each message in the
    /// connection's order (a presence change never overtakes the controller state published before it).
    /// Presence comes through `quad/+/status/#` for every feed: it also tells which drones have a drone-controller
    /// (for "did you mean" hints), and every feed in one process then subscribes the same filter — overlapping
    /// filters on one connection are refused (the broker would deliver a message once per matching filter).
    init(client: any MQTTConnection, drone: DroneID, telemetry: Bool = true) throws(MQTTError) {
        let ownPrefix = "\(Topics.presence.topic(for: drone))/"
        try pump(client, Topics.allStatusFilter) { feed, message in
            guard let status = try? ServiceStatus(json: message.payload) else { return }
            if let other = DroneID(topic: message.topic),
               message.topic == Topics.status(service: "drone-controller", drone: other) {
                feed.state.withLock { $0.controllers[other.rawValue] = status.state == .online }
            }
            guard message.topic.hasPrefix(ownPrefix), let name = message.topic.split(separator: "/")
                .last else { return }
            feed.record(.presence(name: String(name), status: status)) { $0.presences[String(name)] = status }
        }
        try pump(client, Topics.controllerState.topic(for: drone)) { feed, message in
            guard let s = try? ControllerState(decoding: message.payload) else { return }
            feed.record(.controller(s, retained: message.retain)) { $0.latest.controller = s }
        }
        try pump(client, Topics.airspaceStatus.topic(for: drone)) { feed, message in
            guard let s = try? AirspaceStatus(decoding: message.payload) else { return }
            feed.state.withLock { $0.latest.airspace = s }
        }
        try pump(client, Topics.airspaceRoute.topic(for: drone)) { feed, message in
            guard let plan = try? AirspaceRoutePlan(decoding: message.payload) else { return }
            feed.state.withLock { $0.latest.route = plan }
        }
        try pump(client, Topics.missionProgress.topic(for: drone)) { feed, message in
            guard let p = try? MissionProgress(decoding: message.payload) else { return }
            feed.state.withLock { $0.latest.mission = p }
        }
        try pump(client, Topics.missionStatus.topic(for: drone)) { feed, message in
            guard let s = try? MissionStatus(decoding: message.payload) else { return }
            feed.state.withLock { $0.latest.missionStatus = s }
        }
        try pump(client, Topics.missionAutopilot.topic(for: drone)) { feed, message in
            guard let s = try? MissionStatus(decoding: message.payload) else { return }
            feed.state.withLock { $0.latest.autopilotMission = s }
        }
        guard telemetry else { return }
        try pump(client, Topics.droneState.topic(for: drone), qos: 0) { feed, message in
            guard let s = try? DroneState(decoding: message.payload) else { return }
            let received = WallClock.now()
            feed.record(.drone(s)) {
                $0.latest.drone = s
                $0.clock.observe(remoteStamp: WallInstant(us: s.timestampUs), localReceipt: received)
                $0.latest.clockOffset = $0.clock.offset
            }
        }
        try pump(client, Topics.linkStatus.topic(for: drone)) { feed, message in
            guard let s = try? LinkStatus(decoding: message.payload) else { return }
            feed.record(.link(s)) { $0.latest.link = s }
        }
        try pump(client, Topics.navigation.topic(for: drone), qos: 0) { feed, message in
            guard let s = try? NavigationSolution(decoding: message.payload) else { return }
            feed.record(.navigation(s)) { $0.latest.navigation = s }
        }
        try pump(client, Topics.position.topic(for: drone), qos: 0) { feed, message in
            guard let s = try? PositionFix(decoding: message.payload) else { return }
            feed.state.withLock { $0.latest.position = s }
        }
    }

    var latest: Latest { state.withLock { $0.latest } }

    func presence(of service: String) -> ServiceStatus? { state.withLock { $0.presences[service] } }

    /// Drones whose drone-controller is online.
    var dronesWithController: [String] { state.withLock { $0.controllers.filter(\.value).map(\.key) } }

    /// An inbox of every event from now on, starting with what is already known (retained messages may have
    /// arrived before the consumer asked).
    func inbox() -> Inbox<Event> {
        let inbox = Self.consumerInbox()
        state.withLock { s in
            for (name, status) in s.presences.sorted(by: { $0.key < $1.key }) {
                inbox.send(.presence(name: name, status: status))
            }
            if let c = s.latest.controller { inbox.send(.controller(c, retained: true)) }
            if let d = s.latest.drone { inbox.send(.drone(d)) }
            if let l = s.latest.link { inbox.send(.link(l)) }
            if let n = s.latest.navigation { inbox.send(.navigation(n)) }
            s.inboxes.append(inbox)
        }
        return inbox
    }

    /// Stops filling `inbox` (a consumer that from now on reads only `latest`).
    func remove(_ inbox: Inbox<Event>) {
        state.withLock { $0.inboxes.removeAll { $0 === inbox } }
    }

    /// Events each consumer may leave waiting.
    static let consumerLimit = 1024

    /// One consumer's events, in arrival order, taken by a loop that keeps its own time (route, pilot session,
    /// one-shot commands: `Inbox.drained`). Bounded so a stalled consumer cannot grow memory: past `consumerLimit`
    /// the oldest go, counted; the first drop and every 1024th after it are logged.
    static func consumerInbox(logger: Logger = Logger(label: "location-broadcaster")) -> Inbox<Event> {
        .drained(limit: consumerLimit) { dropped in
            guard dropped % consumerLimit == 1 else { return }
            logger.warning("a bus consumer fell behind: \(dropped) event(s) dropped so far, the oldest first")
        }
    }

    private func record(_ event: Event, _ update: (inout State) -> Void) {
        let inboxes = state.withLock { s in
            update(&s)
            return s.inboxes
        }
        inboxes.forEach { $0.send(event) }
    }

    private func pump(_ client: any MQTTConnection, _ filter: String, qos: Int32 = 1,
                      _ handle: @escaping @Sendable (BusFeed, MQTTMessage) -> Void) throws(MQTTError) {
        try client.subscribe(filter, qos: qos) { [weak self] message in
            guard let self else { return }
            handle(self, message)
        }
    }
}
