import GroundStation
import Logging
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
        /// Board clock minus this laptop's, from telemetry stamps (display only).
        var clockOffsetUs: Int64?
    }

    private struct State {
        var latest = Latest()
        var presences: [String: ServiceStatus] = [:]
        /// Drone id → whether its drone-controller is online (only with `controllers: true`).
        var controllers: [String: Bool] = [:]
        var inboxes: [FeedQueue] = []
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
        guard telemetry else { return }
        try pump(client, Topics.droneState.topic(for: drone), qos: 0) { feed, message in
            guard let s = try? DroneState(decoding: message.payload) else { return }
            let receivedUs = WallClock.nowUs()
            feed.record(.drone(s)) {
                $0.latest.drone = s
                $0.clock.observe(remoteStampUs: s.timestampUs, localReceiptUs: receivedUs)
                $0.latest.clockOffsetUs = $0.clock.offsetUs
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

    /// A queue of every event from now on, starting with what is already known (retained messages may have
    /// arrived before the consumer asked).
    func inbox() -> FeedQueue {
        let inbox = FeedQueue()
        state.withLock { s in
            for (name, status) in s.presences.sorted(by: { $0.key < $1.key }) {
                inbox.append(.presence(name: name, status: status))
            }
            if let c = s.latest.controller { inbox.append(.controller(c, retained: true)) }
            if let d = s.latest.drone { inbox.append(.drone(d)) }
            if let l = s.latest.link { inbox.append(.link(l)) }
            if let n = s.latest.navigation { inbox.append(.navigation(n)) }
            s.inboxes.append(inbox)
        }
        return inbox
    }

    private func record(_ event: Event, _ update: (inout State) -> Void) {
        let inboxes = state.withLock { s in
            update(&s)
            return s.inboxes
        }
        inboxes.forEach { $0.append(event) }
    }

    private func pump(_ client: any MQTTConnection, _ filter: String, qos: Int32 = 1,
                      _ handle: @escaping @Sendable (BusFeed, MQTTMessage) -> Void) throws(MQTTError) {
        try client.subscribe(filter, qos: qos) { [weak self] message in
            guard let self else { return }
            handle(self, message)
        }
    }
}

/// Events for one consumer, in arrival order; bounded so a stalled consumer cannot grow memory. Drained by polling
/// loops (route, pilot session, one-shot commands) that also keep their own time; not QuadService's `Inbox`, an
/// AsyncStream that one service loop awaits (FleetView uses that one): these loops check a deadline between
/// drains, which a stream they would await cannot give them without a second task. Both shapes count what they drop.
final class FeedQueue: Sendable {
    static let limit = 1024
    private struct State {
        var events: [BusFeed.Event] = []
        var dropped = 0
    }
    private let state = Mutex(State())
    private let logger: Logger

    init(logger: Logger = Logger(label: "location-broadcaster")) {
        self.logger = logger
    }

    /// Past `limit` the oldest event goes; the first drop and every 1024th after it are logged.
    func append(_ event: BusFeed.Event) {
        let dropped: Int? = state.withLock {
            var dropped: Int?
            if $0.events.count >= Self.limit {
                $0.events.removeFirst()
                $0.dropped += 1
                if $0.dropped % Self.limit == 1 { dropped = $0.dropped }
            }
            $0.events.append(event)
            return dropped
        }
        if let dropped {
            logger.warning("a bus consumer fell behind: \(dropped) event(s) dropped so far, the oldest first")
        }
    }

    /// Events dropped because this consumer fell behind.
    var droppedCount: Int { state.withLock { $0.dropped } }

    func drain() -> [BusFeed.Event] {
        state.withLock { s in
            defer { s.events.removeAll() }
            return s.events
        }
    }
}
