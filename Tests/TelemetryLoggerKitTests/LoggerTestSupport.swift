import FlightLog
import InMemoryMQTT
import Logging
import QuadMQTT
import QuadProtocol
import QuadService
import ServiceLifecycle
import Synchronization
@testable import TelemetryLoggerKit
#if canImport(Glibc)
import Glibc
#endif

/// A temporary directory (in TMPDIR, else /tmp) for one test's log files, removed with everything in it at
/// `remove()`.
struct TemporaryDirectory {
    let path: String

    init() {
        let tmpdir = getenv("TMPDIR").map { String(cString: $0) } ?? ""
        let base = tmpdir.isEmpty ? "/tmp" : tmpdir
        var template = Array("\(base)/quad-logger-kit-test-\(getpid())-XXXXXX".utf8CString)
        path = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
    }

    /// The `.qlog` files in it, by name.
    var logs: [String] {
        FileBytes.directoryEntries(path).filter { $0.hasSuffix(".qlog") }.sorted()
    }

    /// Every record of the files whose name starts with `<drone>-`, in file order.
    func records(of drone: String) throws -> [LogRecord] {
        try logs.filter { $0.hasPrefix("\(drone)-") }.flatMap { try LoadedLog(path: path + "/" + $0).records }
    }

    func remove() { Self.removeTree(path) }

    private static func removeTree(_ path: String) {
        for name in FileBytes.directoryEntries(path) {
            let entry = path + "/" + name
            if unlink(entry) != 0 { removeTree(entry) }  // unlink refuses a directory
        }
        rmdir(path)
    }
}

/// Ends the service group (like SIGTERM would) once the test says so.
final class StopSwitch: Service, Sendable {
    private let stopped = Mutex(false)
    func stop() { stopped.withLock { $0 = true } }
    func run() async throws {
        while !stopped.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(5)) }
    }
}

enum LoggerFixtures {
    static let drone1 = DroneID(rawValue: "drone1") ?? .default
    static let drone2 = DroneID(rawValue: "drone2") ?? .default

    static func recording(_ directory: TemporaryDirectory, drones: DroneSelection = .all, answerSync: Bool = false)
        -> Recording {
        Recording(directory: directory.path, maxFileBytes: 64 << 20, fsyncIntervalMs: 1000, note: "unit test",
                  drones: drones, share: nil, autoSync: false, answerSync: answerSync, syncDelayMs: 2000)
    }

    /// A runtime over a fresh connection to `broker`, presence as drone1's telemetry-logger.
    /// `presence`: the status topic's service name (several loggers on one broker each need their own).
    static func runtime(_ broker: InMemoryBroker, presence: String = "telemetry-logger") -> ServiceRuntime {
        ServiceRuntime(service: presence, drone: drone1, connection: broker.connect(clientId: presence),
                       logger: Logger(label: "logger-test"))
    }

    /// Waits until the runtime announced itself (subscriptions are made before that).
    static func waitUntilOnline(_ broker: InMemoryBroker, presence: String = "telemetry-logger") async throws {
        let status = Topics.status(service: presence, drone: drone1)
        _ = await eventually { broker.retained(on: status) != nil }
    }

    /// A DroneState message as drone-link publishes it, on the ground (no takeoff: no rotation to a new file).
    static func droneState(_ sequence: UInt32, timestampUs: Int64) -> [UInt8] {
        let message = DroneState(sequence: sequence, timestampUs: timestampUs, navdataSequence: sequence,
                                 stateBits: 0, controlState: .landed, batteryPercent: 80, altitudeM: 2, pitchDeg: 0,
                                 rollDeg: 0, yawDeg: 0, velocityXMps: 0, velocityYMps: 0, velocityZMps: 0)
        return (try? message.encoded()) ?? []
    }

    static func message(_ topic: String, _ payload: [UInt8], qos: Int32 = 1) -> MQTTMessage {
        MQTTMessage(topic: topic, payload: payload, qos: qos, retain: false)
    }
}
