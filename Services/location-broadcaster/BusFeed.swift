import GroundStation
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
        var inboxes: [Inbox] = []
        var clock = ClockOffsetEstimator()
    }

    private let state = Mutex(State())
    private let tasks = Mutex<[Task<Void, Never>]>([])

    /// Subscribes on `client` (now if connected, and after every reconnect) and starts decoding.
    /// `controllers`: also follow every drone's drone-controller presence, to tell the user which drones have one.
    init(client: MQTTClient, drone: DroneID, telemetry: Bool = true, controllers: Bool = false) {
        if controllers {
            pump(client.subscribe(Topics.controllerPresenceFilter)) { feed, message in
                guard let drone = DroneID(topic: message.topic),
                      let status = try? ServiceStatus(json: message.payload) else { return }
                feed.state.withLock { $0.controllers[drone.rawValue] = status.state == .online }
            }
        }
        pump(client.subscribe(Topics.controllerState.topic(for: drone))) { feed, message in
            guard let s = try? ControllerState(decoding: message.payload) else { return }
            feed.record(.controller(s, retained: message.retain)) { $0.latest.controller = s }
        }
        pump(client.subscribe(Topics.statusFilter(drone: drone))) { feed, message in
            guard let name = message.topic.split(separator: "/").last,
                  let status = try? ServiceStatus(json: message.payload) else { return }
            feed.record(.presence(name: String(name), status: status)) { $0.presences[String(name)] = status }
        }
        guard telemetry else { return }
        pump(client.subscribe(Topics.droneState.topic(for: drone), qos: 0, bufferLimit: 64)) { feed, message in
            guard let s = try? DroneState(decoding: message.payload) else { return }
            let receivedUs = WallClock.nowUs()
            feed.record(.drone(s)) {
                $0.latest.drone = s
                $0.clock.observe(remoteStampUs: s.timestampUs, localReceiptUs: receivedUs)
                $0.latest.clockOffsetUs = $0.clock.offsetUs
            }
        }
        pump(client.subscribe(Topics.linkStatus.topic(for: drone))) { feed, message in
            guard let s = try? LinkStatus(decoding: message.payload) else { return }
            feed.record(.link(s)) { $0.latest.link = s }
        }
        pump(client.subscribe(Topics.navigation.topic(for: drone), qos: 0, bufferLimit: 64)) { feed, message in
            guard let s = try? NavigationSolution(decoding: message.payload) else { return }
            feed.record(.navigation(s)) { $0.latest.navigation = s }
        }
        pump(client.subscribe(Topics.position.topic(for: drone), qos: 0, bufferLimit: 64)) { feed, message in
            guard let s = try? PositionFix(decoding: message.payload) else { return }
            feed.state.withLock { $0.latest.position = s }
        }
    }

    deinit { tasks.withLock { $0.forEach { $0.cancel() } } }

    var latest: Latest { state.withLock { $0.latest } }

    func presence(of service: String) -> ServiceStatus? { state.withLock { $0.presences[service] } }

    /// Drones whose drone-controller is online.
    var dronesWithController: [String] { state.withLock { $0.controllers.filter(\.value).map(\.key) } }

    /// A queue of every event from now on, starting with what is already known (retained messages may have
    /// arrived before the consumer asked).
    func inbox() -> Inbox {
        let inbox = Inbox()
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

    private func pump(_ subscription: MQTTSubscription,
                      _ handle: @escaping @Sendable (BusFeed, MQTTMessage) -> Void) {
        let task = Task { [weak self] in
            for await message in subscription {
                guard let self else { return }
                handle(self, message)
            }
        }
        tasks.withLock { $0.append(task) }
    }
}

/// Events for one consumer, in arrival order; bounded so a stalled consumer cannot grow memory.
final class Inbox: Sendable {
    static let limit = 1024
    private let events = Mutex<[BusFeed.Event]>([])

    func append(_ event: BusFeed.Event) {
        events.withLock {
            if $0.count >= Self.limit { $0.removeFirst() }
            $0.append(event)
        }
    }

    func drain() -> [BusFeed.Event] {
        events.withLock { e in
            defer { e.removeAll() }
            return e
        }
    }
}
