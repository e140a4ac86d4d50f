import Logging
import QuadMQTT
import QuadProtocol
import ServiceLifecycle
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

private let loggingBootstrapped: Mutex<Bool> = Mutex(false)

/// What every service shares: the broker connection with presence (Last Will + retained online/offline status),
/// logging, and a graceful run/shutdown on SIGTERM/SIGINT.
public final class ServiceRuntime: Sendable {
    public static let version = "0.1.0"

    public let service: String
    public let drone: DroneID
    public let logger: Logger
    public let client: any MQTTConnection
    /// When this process started, on the wall clock (the status message's `startedAt`).
    public let startedAt: WallInstant

    /// - Parameters:
    ///   - service: the executable name; also the status topic's last level.
    ///   - presenceName: the status topic below `quad/<id>/status/` when it is not `service` (several
    ///     location-broadcasters each need their own: `Topics.broadcasterPresenceName(senderId:)`).
    ///   - deliveryBufferLimit: messages the connection's one delivery queue holds for slow consumers.
    ///   - handlersNeverBlock: every subscription of this service only hands messages on (`feed` into an
    ///     `Inbox`): they then run on the network thread, one thread wake-up per message
    ///     fewer (`MQTTConfiguration.deliversOnNetworkThread`). The board services say so.
    public init(service: String, options: CommonOptions.Resolved, presenceName: String? = nil,
                deliveryBufferLimit: Int = 4096, handlersNeverBlock: Bool = false) throws {
        EarlyStop.install()
        Self.bootstrapLogging(level: options.logLevel)
        let presence = presenceName ?? service
        self.service = presence
        drone = options.drone
        let shortName = presence.split(separator: "/").last.map(String.init) ?? service
        var logger = Logger(label: shortName)
        logger.logLevel = options.logLevel
        self.logger = logger
        let startedAt = WallClock.now()
        self.startedAt = startedAt
        let statusTopic = Topics.status(service: presence, drone: options.drone)
        let offline = Self.statusPayload(state: .offline, service: presence, startedAt: startedAt)
        let online = Self.statusPayload(state: .online, service: presence, startedAt: startedAt)
        var configuration = MQTTConfiguration(
            host: options.broker.host, port: options.broker.port,
            // The pid makes the default unique: a broker drops the older of two clients with one id, so a second
            // instance (a logger beside a logger) would otherwise knock the first off every reconnect.
            clientId: options.clientId ?? "\(shortName)-\(options.drone.rawValue)-\(getpid())",
            username: options.username, password: options.password, tls: options.tls,
            protocolVersion: options.mqttVersion,
            will: .init(topic: statusTopic, payload: offline, qos: Topics.presence.qos.rawValue,
                        retain: Topics.presence.retain),
            deliveryBufferLimit: deliveryBufferLimit, alternateBrokers: options.alternateBrokers)
        configuration.deliversOnNetworkThread = handlersNeverBlock
        // After every (re)connect, once subscriptions are re-made, and every re-announce interval: online.
        configuration.announcement = .init(topic: statusTopic, payload: online, qos: Topics.presence.qos.rawValue,
                                           retain: Topics.presence.retain,
                                           interval: .seconds(ServiceStatus.reannounceIntervalS))
        let client = try MQTTClient(configuration: configuration, logger: logger)
        self.client = client
        announce = nil
        endAnnouncement = { client.endAnnouncement() }
        armsWatchdog = true
        releasesStartupPages = true
    }

    /// A runtime over a connection made elsewhere (an `InMemoryBroker`'s, in unit tests): no logging bootstrap,
    /// no signal handling of its own beyond `run`'s group; the `online` status is published once `run` starts the
    /// connection, then every re-announce interval, like the real one.
    public init(service: String, drone: DroneID, connection: any MQTTConnection, logger: Logger,
                startedAt: WallInstant = WallInstant(us: 0)) {
        self.service = service
        self.drone = drone
        self.logger = logger
        self.startedAt = startedAt
        client = connection
        let statusTopic = Topics.status(service: service, drone: drone)
        let online = Self.statusPayload(state: .online, service: service, startedAt: startedAt)
        announce = { [connection] in
            guard connection.isConnected else { return }
            _ = try? connection.publish(topic: statusTopic, payload: online, qos: Topics.presence.qos.rawValue,
                                        retain: Topics.presence.retain, expiryS: nil)
        }
        // Its process is a test runner, not a service: `ShutdownWatchdog` would end it with exit 0 (and a test run
        // that stops early with exit 0 looks green).
        armsWatchdog = false
        releasesStartupPages = false
        endAnnouncement = {}
    }

    /// Whether a stop that hangs past `ShutdownWatchdog.limitS` ends the process.
    private let armsWatchdog: Bool
    /// Whether the process gives back its start-up pages (`StartupPages`) `startupPagesDelayS` after the
    /// connection starts. Not in a test runner: its pages are not a service's.
    private let releasesStartupPages: Bool
    /// Start-up is long over by then (exec → online takes ~15 ms); early enough that the flight footprint is the
    /// steady state's.
    static let startupPagesDelayS = 2

    /// Publishes the retained `online`, which `run` does as it starts the connection and every
    /// `ServiceStatus.reannounceIntervalS` after: only over a connection made elsewhere. nil for the real client,
    /// which does both itself (`MQTTConfiguration.announcement`) without waking the Swift pool.
    private let announce: (@Sendable () -> Void)?
    /// Stops the real client's announcements before the goodbye (the other kind stops with `run`'s task).
    private let endAnnouncement: @Sendable () -> Void

    /// Feeds one topic of the table for this drone into `inbox`, in the connection's order.
    public func feed<Payload, Event>(
        _ inbox: Inbox<Event>, _ spec: TopicSpec<Payload>,
        _ transform: @escaping @Sendable (MQTTMessage, _ receivedAt: MonotonicInstant) -> Event
    ) throws(MQTTError) {
        try inbox.feed(client, filter: spec.topic(for: drone), qos: spec.qos.rawValue, transform)
    }

    /// Publishes raw bytes on one topic of the table for this drone, with the table's QoS and retain flag.
    /// `expiryS`: MQTT 5 Message Expiry (see `MessageExpiry`), ignored on a 3.1.1 connection.
    public func publish<Payload>(_ spec: TopicSpec<Payload>, payload: [UInt8],
        expiryS: UInt32? = nil) throws(MQTTError) {
        try client.publish(topic: spec.topic(for: drone), payload: payload, qos: spec.qos.rawValue, retain: spec.retain,
                           expiryS: expiryS)
    }

    /// Connects, runs `services` until SIGTERM/SIGINT (or until they all finish), then says goodbye: a retained
    /// `offline` status and a clean disconnect, so the broker does not fire the will.
    public func run(_ services: [any Service]) async throws {
        logger.info("\(service) \(Self.version) for drone \(drone) (pid \(getpid()))")
        // The connection starts inside the group, after it has installed the signal handlers: a SIGTERM that
        // arrives right after the `online` status must still end in a graceful goodbye.
        let connection = ConnectionService(client: client, logger: logger, announce: announce,
                                           armsWatchdog: armsWatchdog,
                                           releasesStartupPages: releasesStartupPages)
        let group = ServiceGroup(configuration: .init(
            services: [.init(service: connection)]
                + services.map { .init(service: $0, successTerminationBehavior: .gracefullyShutdownGroup) },
            gracefulShutdownSignals: [.sigterm, .sigint],
            logger: logger))
        // EarlyStop's handler stays until the group replaces it (its signal source sets SIG_IGN when it starts):
        // handing over to the default action first left a window where a SIGTERM killed the process with 143.
        do {
            try await group.run()
        } catch {
            logger.error("stopping after an error: \(error)")
            await goodbye()
            throw error
        }
        await goodbye()
    }

    /// Publishes the retained offline status (waiting up to 0.4 s for the broker) and disconnects.
    /// Bounded, so a stop takes well under `ShutdownWatchdog.limitS` even with a silent broker.
    public func goodbye() async {
        let topic = Topics.status(service: service, drone: drone)
        let offline = Self.statusPayload(state: .offline, service: service, startedAt: startedAt)
        endAnnouncement()
        if client.isConnected {
            try? await client.publishAndWait(topic: topic, payload: offline, qos: Topics.presence.qos.rawValue,
                                             retain: Topics.presence.retain, expiryS: nil,
                                             timeout: .seconds(0.4))
        }
        client.shutdown(timeout: .seconds(0.5))
        logger.info("stopped")
    }

    static func statusPayload(state: ServiceStatus.State, service: String, startedAt: WallInstant) -> [UInt8] {
        ServiceStatus(state: state, service: service, version: version, startedAt: startedAt.seconds,
                      pid: getpid()).encodedJSON()
    }

    private static func bootstrapLogging(level: Logger.Level) {
        loggingBootstrapped.withLock { done in
            guard !done else { return }
            LoggingSystem.bootstrap { label in
                var handler = StreamLogHandler.standardError(label: label)
                handler.logLevel = level
                return handler
            }
            done = true
        }
    }
}

/// Starts the broker connection once the service group runs, then waits for shutdown.
private struct ConnectionService: Service {
    let client: any MQTTConnection
    let logger: Logger
    let announce: (@Sendable () -> Void)?
    let armsWatchdog: Bool
    let releasesStartupPages: Bool
    func run() async throws {
        try client.start()
        announce?()
        let release = Task { [logger, releasesStartupPages] in
            guard releasesStartupPages else { return }
            try? await Task.sleep(for: .seconds(ServiceRuntime.startupPagesDelayS))
            guard !Task.isCancelled, let released = StartupPages.release() else { return }
            logger.info("start-up pages given back: \(released.residentKiB) KiB in \(released.mappings) mappings")
        }
        // Stopped before the group ends, so no `online` can follow the goodbye's `offline`.
        let reannounce = Task {
            guard let announce else { return }
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(ServiceStatus.reannounceIntervalS))
                if !Task.isCancelled { announce() }
            }
        }
        try? await gracefulShutdown()
        reannounce.cancel()
        release.cancel()
        await reannounce.value
        if armsWatchdog { ShutdownWatchdog.arm(logger: logger) }
    }
}
