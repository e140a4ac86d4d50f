import ArgumentParser
import CommandLineSupport
import FlightLog
import QuadMQTT
import QuadProtocol
import QuadService

struct ReplayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Publish a log's messages again with their topic, QoS and retain flag, at the original pacing.",
        discussion: "Waits for the broker's acknowledgement of QoS 1 messages, then exits 0.")

    @OptionGroup var common: CommonOptions

    @Argument(help: "The .qlog file.")
    var log: String

    @Option(parsing: .signedNumber, help: "Playback speed: 2 = twice as fast, 0 = as fast as possible.")
    var speed = 1.0

    @Option(help: "Publish under this drone id instead of the recorded one.")
    var droneOverride: String?

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
        let client = try PlainClient.make(options, role: "replay")
        defer { client.shutdown() }
        try client.start()
        guard await client.waitUntilConnected(timeoutS: 10) else {
            throw LoggerError.badOption("cannot connect to the broker at \(options.broker)")
        }
        let drone = droneOverride.flatMap(DroneID.init(rawValue:))
        let startUs = WallClock.monotonicUs()
        let firstUs = loaded.records.first?.receiveTimeUs ?? 0
        for record in loaded.records {
            if speed > 0 {
                let dueUs = Double(record.receiveTimeUs &- firstUs) / speed
                let waitUs = dueUs - Double(WallClock.monotonicUs() - startUs)
                if waitUs > 1000 { try await Task.sleep(for: .microseconds(Int64(min(waitUs, 3.6e9)))) }
            }
            let topic = drone.flatMap { Topics.replacingDrone(in: record.topic, with: $0) } ?? record.topic
            try await publish(client, topic: topic, record: record)
        }
        let deadline = WallClock.monotonicUs() + 10_000_000
        while client.pendingAcknowledgements > 0, WallClock.monotonicUs() < deadline {
            try await Task.sleep(for: .milliseconds(5))
        }
        // Give queued QoS 0 packets a moment to leave before the DISCONNECT.
        try await Task.sleep(for: .milliseconds(100))
        POSIXFile.writeStandardError("replayed \(loaded.records.count) records from \(log)\n")
    }

    /// Publishes, waiting while the client's QoS 1 window is full or the connection is momentarily down.
    private func publish(_ client: MQTTClient, topic: String, record: LogRecord) async throws {
        while true {
            do {
                try client.publish(topic: topic, payload: record.payload, qos: Int32(record.qos), retain: record.retain)
                return
            } catch .offlineQueueFull, .notConnected {
                try await Task.sleep(for: .milliseconds(2))
            }
        }
    }
}
