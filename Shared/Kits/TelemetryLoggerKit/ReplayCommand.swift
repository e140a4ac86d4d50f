import ArgumentParser
import CommandLineSupport
import FlightLog
import QuadMQTT
import QuadProtocol
import QuadService
import Synchronization

struct ReplayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Publish a log's messages again, at the original pacing, under replay/ (never the live topics).",
        discussion: """
            By default every message goes to replay/<recorded topic> (replay/quad/<id>/…), which no service \
            subscribes to, so a recorded takeoff, emergency or reset never reaches a live drone. With --live the \
            recorded topics are used, refused (exit 1) while the drone's controller is online (retained \
            quad/<id>/status/drone-controller says "online"; read for up to 1 s); presence (status/…) is then \
            skipped. Nothing is republished retained. Waits for the broker's acknowledgement of QoS 1 messages, \
            then exits 0.
            """)

    /// How long `--live` waits for the controllers' retained presence after connecting.
    static let presenceWaitMs = 1000

    @OptionGroup var common: CommonOptions

    @Argument(help: "The .qlog file.")
    var log: String

    @Option(parsing: .signedNumber, help: "Playback speed: 2 = twice as fast, 0 = as fast as possible.")
    var speed = 1.0

    @Option(help: "Publish under this drone id instead of the recorded one.")
    var droneOverride: String?

    @Flag(
        help: """
            Publish on the live topics (quad/<id>/…) instead of replay/…; \
            refused while the controller is online.
            """)
    var live = false

    func validate() throws {
        guard speed.isFinite, speed >= 0 else { throw ValidationError("--speed: expected a number ≥ 0") }
        if let droneOverride, DroneID(rawValue: droneOverride) == nil {
            throw ValidationError("--drone-override '\(droneOverride)': expected 1–32 characters of a-z, 0-9 and '-'")
        }
    }

    func run() async throws {
        let options = try common.resolve()
        let loaded = try LoadedLog(path: log)
        loaded.reportProblems()
        let routing = ReplayRouting(destination: live ? .live : .replayRoot,
                                    droneOverride: droneOverride.flatMap(DroneID.init(rawValue:)))
        let client = try PlainClient.make(options, role: "replay")
        defer { client.shutdown() }
        let presence = try PresenceWatch(client: client, drones: routing.liveDrones(loaded.records))
        try client.start()
        guard await client.waitUntilConnected(timeout: .seconds(10)) else {
            throw LoggerError.badOption("cannot connect to the broker at \(options.brokerList)")
        }
        if live {
            for (drone, payload) in await presence.retained(waitingMs: Self.presenceWaitMs) {
                if let refusal = LiveReplayGate.refusal(drone: drone, retainedPresence: payload) {
                    throw LoggerError.liveReplayRefused(refusal)
                }
            }
        }
        let (published, skipped) = try await Self.replay(loaded.records, routing: routing, speed: speed,
                                                         client: client)
        let deadline = MonotonicClock.nowUs() + 10_000_000
        while client.pendingAcknowledgements > 0, MonotonicClock.nowUs() < deadline {
            try await Task.sleep(for: .milliseconds(5))
        }
        // Give queued QoS 0 packets a moment to leave before the DISCONNECT.
        try await Task.sleep(for: .milliseconds(100))
        let root = live ? "the live topics" : Topics.replayedEverything
        var summary = "replayed \(published) of \(loaded.records.count) records from \(log) on \(root)\n"
        for (reason, count) in skipped.sorted(by: { $0.key < $1.key }) {
            summary += "skipped \(count) record(s): \(reason)\n"
        }
        FileBytes.writeStandardError(summary)
    }

    /// Publishes `records` as `routing` says, paced by their receive times divided by `speed` (0: at once).
    /// Returns how many were published and, per reason, how many were skipped.
    static func replay(_ records: [LogRecord], routing: ReplayRouting, speed: Double, client: any MQTTConnection)
        async throws -> (published: Int, skipped: [String: Int]) {
        let startUs = MonotonicClock.nowUs()
        let firstUs = records.first?.receiveTimeUs ?? 0
        var published = 0
        var skipped: [String: Int] = [:]
        for record in records {
            if speed > 0 {
                let dueUs = Double(record.receiveTimeUs &- firstUs) / speed
                let waitUs = dueUs - Double(MonotonicClock.nowUs() - startUs)
                if waitUs > 1000 { try await Task.sleep(for: .microseconds(Int64(min(waitUs, 3.6e9)))) }
            }
            switch routing.route(record) {
            case .publish(let topic):
                if let failure = try await publish(client, topic: topic, record: record) {
                    skipped["\(failure)", default: 0] += 1
                } else {
                    published += 1
                }
            case .skip(let reason):
                skipped[reason, default: 0] += 1
            }
        }
        return (published, skipped)
    }

    /// Publishes (never retained), waiting while the client's QoS 1 window is full or the connection is
    /// momentarily down. Returns the broker library's refusal of this one message (e.g. a malformed topic from
    /// a damaged log) so the replay goes on.
    private static func publish(_ client: any MQTTConnection, topic: String,
        record: LogRecord) async throws -> MQTTError? {
        while true {
            do {
                try client.publish(topic: topic, payload: record.payload, qos: Int32(record.qos),
                                   retain: false)
                return nil
            } catch .offlineQueueFull, .notConnected {
                try await Task.sleep(for: .milliseconds(2))
            } catch {
                if case .shutDown = error { throw LoggerError.badOption("the broker connection was shut down") }
                return error
            }
        }
    }
}

/// The retained drone-controller presence of some drones, collected from the moment of subscribing.
private final class PresenceWatch: Sendable {
    private let drones: [DroneID]
    private let seen = Mutex<[DroneID: [UInt8]]>([:])

    /// Subscribes before the client starts, so the retained messages arrive right after the first SUBACK. The
    /// readers end when the client shuts down.
    init(client: any MQTTConnection, drones: [DroneID]) throws(MQTTError) {
        self.drones = drones
        for drone in drones {
            try client.subscribe(Topics.status(service: LiveReplayGate.controllerService, drone: drone), qos: 1) {
                [weak self] message in self?.seen.withLock { $0[drone] = message.payload }
            }
        }
    }

    /// Each drone's presence payload (nil: none retained), once all arrived or after `waitingMs`.
    func retained(waitingMs: Int) async -> [(DroneID, [UInt8]?)] {
        let deadline = MonotonicClock.nowUs() + Int64(waitingMs) * 1000
        while seen.withLock({ $0.count }) < drones.count, MonotonicClock.nowUs() < deadline {
            try? await Task.sleep(for: .milliseconds(10))
        }
        let payloads = seen.withLock { $0 }
        return drones.map { ($0, payloads[$0]) }
    }
}
