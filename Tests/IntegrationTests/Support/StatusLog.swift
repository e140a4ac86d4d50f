import Foundation
import Logging
import QuadMQTT

/// The latest payload per last topic level (`status/<service>` → service, `telemetry/drone` → drone).
final class StatusLog: @unchecked Sendable {
    private let lock = NSLock()
    private var latestByService: [String: String] = [:]
    private var firstReceivedAtByService: [String: ContinuousClock.Instant] = [:]
    private var countByService: [String: Int] = [:]

    func record(_ message: MQTTMessage) {
        let service = String(message.topic.split(separator: "/").last ?? "")
        let now = ContinuousClock.now
        lock.withLock {
            latestByService[service] = String(decoding: message.payload, as: UTF8.self)
            if firstReceivedAtByService[service] == nil { firstReceivedAtByService[service] = now }
            countByService[service, default: 0] += 1
        }
    }

    func latest(_ service: String) -> String? { lock.withLock { latestByService[service] } }

    /// How many payloads arrived for `service` (a re-announce counts).
    func count(_ service: String) -> Int { lock.withLock { countByService[service, default: 0] } }

    /// When the first payload arrived (recorded on the network thread, so a starved test pool does not add to it;
    /// a test that polls late would otherwise see a re-announce's time).
    func firstReceivedAt(_ service: String) -> ContinuousClock.Instant? {
        lock.withLock { firstReceivedAtByService[service] }
    }

    /// A started client that records every message on `filters` into a new log, on its network thread rather than
    /// in a task: in a full `make test` the test process's two pool threads are often blocked (children being
    /// waited for), and a reader task starved past a deadline read as "the service never came online" (seen in CI).
    static func watching(port: UInt16, clientId: String, filters: [(filter: String, qos: Int32)],
                         logLevel: Logger.Level = .info) throws -> (MQTTClient, StatusLog) {
        let configuration = MQTTConfiguration.recording(port: port, clientId: clientId)
        var logger = Logger(label: clientId)
        logger.logLevel = logLevel
        let client = try MQTTClient(configuration: configuration, logger: logger)
        let log = StatusLog()
        for (filter, qos) in filters { try client.subscribe(filter, qos: qos) { log.record($0) } }
        try client.start()
        return (client, log)
    }
}

extension MQTTConfiguration {
    /// A test client whose handlers only record: they run on its network thread, so what arrived is there for the
    /// test to see even while the test process's pool is starved.
    static func recording(port: UInt16, clientId: String) -> MQTTConfiguration {
        var configuration = MQTTConfiguration(port: Int32(port), clientId: clientId)
        configuration.deliversOnNetworkThread = true
        return configuration
    }
}
