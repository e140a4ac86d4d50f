import CommandLineSupport
import GroundStation
import QuadMQTT
import QuadProtocol
import QuadService

/// `status --all`: every drone on the broker in one table (FleetBoard), once or every interval. It reads presence
/// through `quad/+/status/#` and the controller state, drone state and link of every drone through `quad/+/…`.
/// A broker that withholds retained messages from wildcard subscriptions (RabbitMQ) still shows every running
/// service within one re-announce interval, so the one-shot table waits that long before it prints: a drone or a
/// service not heard from by then is shown as not seen (`?`), never guessed.
struct FleetView {
    let watch: Bool
    let clearScreen: Bool
    private(set) var board = FleetBoard()

    enum Event: Sendable {
        case presence(DroneID, ServicePresence, receivedAt: MonotonicInstant)
        case controller(DroneID, ControllerState, receivedAt: MonotonicInstant)
        case drone(DroneID, DroneState, receivedAt: MonotonicInstant)
        case link(DroneID, LinkStatus, receivedAt: MonotonicInstant)
        /// Undecodable, or from a topic that names no drone: from outside, ignored.
        case ignored
        case tick(now: MonotonicInstant)
    }

    /// `presenceWait`: how long a service not heard from shows "wait" (one re-announce interval and a half second).
    init(watch: Bool, clearScreen: Bool, presenceWait: Duration = StatusBoard.defaultPresenceWait) {
        board.presenceWait = presenceWait
        self.watch = watch
        self.clearScreen = clearScreen
    }

    /// Subscribes on `client` and prints the table: once after one re-announce interval, or with `watch` every
    /// `interval` until `timeoutS` (nil: until cancelled).
    mutating func run(client: any MQTTConnection, interval: DurationText, timeoutS: Double?) async throws {
        // The project's one ordered inbox, stamped on this host's monotonic clock (ages and waits count from receipt).
        let inbox = Inbox<Event>()
        defer { inbox.finish() }
        try Self.subscribe(inbox, client)
        let startUs = MonotonicClock.nowUs()
        board.watchingSince = MonotonicInstant(us: startUs)
        let endUs = timeoutS.map { startUs + Int64($0 * 1_000_000) }
        // Watching: the first screen once retained messages had a moment to arrive, then every interval.
        var nextShowUs = startUs + (watch ? 300_000 : board.presenceWait.us)
        inbox.tick(every: .milliseconds(50)) { .tick(now: $0) }
        for await event in inbox.events {
            switch event {
            case .presence(let drone, let presence, let at):
                board.update(presence: presence, drone: drone, receivedAt: at)
            case .controller(let drone, let state, let at):
                board.update(controller: state, drone: drone, receivedAt: at)
            case .drone(let drone, let state, let at): board.update(drone: state, drone: drone, receivedAt: at)
            case .link(let drone, let status, let at): board.update(link: status, drone: drone, receivedAt: at)
            case .ignored: break
            case .tick(let now):
                let nowUs = now.us
                if let endUs, nowUs >= endUs {
                    if watch { show(now: now) }
                    return
                }
                guard nowUs >= nextShowUs else { continue }
                show(now: now)
                guard watch else { return }
                nextShowUs = nowUs + max(50_000, interval.duration.us)
            }
        }
    }

    private static func subscribe(_ inbox: Inbox<Event>, _ client: any MQTTConnection) throws(MQTTError) {
        try inbox.feed(client, filter: Topics.allStatusFilter, qos: 1) { message, at in
            // The presence name is the last level (`…/status/location-broadcaster/<sender-id>` names the sender).
            guard let drone = DroneID(topic: message.topic), let name = message.topic.split(separator: "/").last,
                  let status = try? ServiceStatus(json: message.payload) else { return .ignored }
            return .presence(drone, ServicePresence(name: String(name), status: status), receivedAt: at)
        }
        try inbox.feed(client, filter: Topics.controllerState.anyDroneFilter,
            qos: Topics.controllerState.qos.rawValue) {
            message, at in
            guard let drone = DroneID(topic: message.topic), let state = try? ControllerState(decoding: message.payload)
            else { return .ignored }
            return .controller(drone, state, receivedAt: at)
        }
        try inbox.feed(client, filter: Topics.droneState.anyDroneFilter, qos: Topics.droneState.qos.rawValue) {
            message, at in
            guard let drone = DroneID(topic: message.topic), let state = try? DroneState(decoding: message.payload)
            else { return .ignored }
            return .drone(drone, state, receivedAt: at)
        }
        try inbox.feed(client, filter: Topics.linkStatus.anyDroneFilter, qos: Topics.linkStatus.qos.rawValue) {
            message, at in
            guard let drone = DroneID(topic: message.topic), let status = try? LinkStatus(decoding: message.payload)
            else { return .ignored }
            return .link(drone, status, receivedAt: at)
        }
    }

    private func show(now: MonotonicInstant) {
        let table = board.render(now: now)
        if watch && clearScreen {
            say("\u{1B}[H\u{1B}[2J" + table)
        } else {
            say(table + (watch ? "\n" + String(repeating: "-", count: 40) : ""))
        }
    }
}
