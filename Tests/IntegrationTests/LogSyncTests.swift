import FlightLog
import Foundation
import Logging
import LogSync
import ProcessSupport
import QuadMQTT
import QuadProtocol
import Testing

/// Two brokers bridged like deploy/drone/mosquitto.conf (telemetry out at QoS 0, sync requests in and answers out
/// at QoS 1), the bridge running through a relay the test cuts like a radio link. A board logger answers sync
/// requests on the board's broker; a ground logger records on the ground's. Telemetry published on the board while
/// the link is cut never reaches the ground, until the ground's log is completed from the board's.
@Suite("log sync over the bridge", .offPool, .serialized, .enabled(if: TestEnvironment.available("mosquitto")))
final class LogSyncIntegrationTests {
    static let drone = DroneID(rawValue: "drone1") ?? .default
    let ground: BrokerProcess
    let proxy: CuttableProxy
    let board: DeployedBroker
    let boardDir: URL
    let groundDir: URL
    var children: [ChildProcess] = []

    init() throws {
        ground = try BrokerProcess()
        proxy = try CuttableProxy(to: ground.port)
        // The deployed bridge's lines that matter here (no auth: the ACLs are tested in DeploymentTests).
        let config = """
            listener 1883 127.0.0.1
            allow_anonymous true
            max_queued_messages 100000
            connection ground
            address 127.0.0.1:1883
            remote_clientid drone1-bridge
            cleansession false
            try_private true
            restart_timeout 4 4
            keepalive_interval 5
            topic quad/+/telemetry/drone out 0
            topic quad/+/log/sync/request in 1
            topic quad/+/log/sync/response/# out 1
            """
        board = try DeployedBroker(label: "board", config: config, bridgeToPort: proxy.port)
        boardDir = board.directory.appendingPathComponent("board-logs")
        groundDir = ground.directory.appendingPathComponent("ground-logs")
    }

    deinit {
        for child in children { child.stop() }
        proxy.stop()
        board.stop()
        ground.stop()
    }

    @Test("record fills the outage by itself: the ground export has every sequence once, the gap marked recovered")
    func automaticSync() async throws {
        try await startLogger(broker: board.port, dir: boardDir, ["--answer-sync"])
        try await startLogger(broker: ground.port, dir: groundDir, ["--sync-delay-ms", "300"])
        let publisher = try await client(port: board.port, id: "board-publisher")
        defer { publisher.shutdown() }
        try await flyThroughOutage(publisher)

        try await eventually(timeout: .seconds(30), "the ground log complete: \(output())") {
            try groundSequences() == Array(1...60)
        }
        try await Task.sleep(for: .milliseconds(500))  // time for a duplicate to show up
        let exported = try exportSequences(groundDir)
        #expect(exported == Array(1...60), "ground export: \(exported)")
        let records = try logRecords(groundDir).filter { $0.topic == Topics.droneState.topic(for: Self.drone) }
        #expect(records.filter(\.recovered).compactMap { RecordKey($0)?.sequence } == Array(21...40))
    }

    @Test("sync completes a finished log from the board; again: nothing missing; without the board: no answer, exit 1")
    func syncCommand() async throws {
        let boardLogger = try await startLogger(broker: board.port, dir: boardDir, ["--answer-sync"])
        let groundLogger = try await startLogger(broker: ground.port, dir: groundDir, ["--no-auto-sync"])
        let publisher = try await client(port: board.port, id: "board-publisher")
        defer { publisher.shutdown() }
        try await flyThroughOutage(publisher)
        try await eventually(timeout: .seconds(20), "the ground has the messages after the outage") {
            try groundSequences().last == 60
        }
        #expect(groundLogger.stop(signal: SIGTERM, timeout: .seconds(20)) == 0)
        #expect(try exportSequences(groundDir) == Array(1...20) + Array(41...60), "--no-auto-sync leaves the gap")

        let listed = try runLogger(["sync", "--dry-run", "--log-dir", groundDir.path, "--drone", "drone1"])
        #expect(listed.code == 65, "a dry run that finds records missing exits 65: \(listed.output)")
        #expect(listed.output.contains("quad/drone1/telemetry/drone 21–40 (20 records)"), "\(listed.output)")

        let synced = try runLogger(["sync", "--broker", "127.0.0.1:\(ground.port)", "--drone", "drone1",
                                    "--log-dir", groundDir.path])
        #expect(synced.code == 0, "\(synced.output)")
        #expect(synced.output.contains("recovered 20 record(s)"), "\(synced.output)")
        #expect(try exportSequences(groundDir) == Array(1...60))

        let again = try runLogger(["sync", "--broker", "127.0.0.1:\(ground.port)", "--drone", "drone1",
                                   "--log-dir", groundDir.path])
        #expect(again.code == 0 && again.output.contains("nothing missing"), "\(again.output)")
        #expect(try exportSequences(groundDir) == Array(1...60))

        // A fresh gap in a copy, and the board's logger gone: the sync says so and exits 1, the file unchanged.
        #expect(boardLogger.stop(signal: SIGTERM, timeout: .seconds(20)) == 0)
        let gappy = groundDir.appendingPathComponent("drone1-20000101-000000.qlog")
        let header = try LogFileHeader(createdUs: 0, note: "test")
        let kept = try logRecords(groundDir).filter { RecordKey($0).map { ![5, 6].contains($0.sequence) } ?? true }
        try Data(header.encoded() + kept.filter { !$0.recovered }.flatMap { $0.encoded() }).write(to: gappy)
        let before = try Data(contentsOf: gappy)
        let unanswered = try runLogger(["sync", "--broker", "127.0.0.1:\(ground.port)", "--drone", "drone1",
                                        "--timeout-ms", "300", gappy.path])
        #expect(unanswered.code == 1, "\(unanswered.output)")
        #expect(unanswered.output.contains("no answer from the board's logger"), "\(unanswered.output)")
        #expect(try Data(contentsOf: gappy) == before)
    }

    // MARK: - Helpers

    /// Sequences 1…20 with the link up, 21…40 while it is cut (the ground never sees them), 41…60 after it is
    /// back; waits until the board's log holds all 60 and the ground's the first 20.
    func flyThroughOutage(_ publisher: MQTTClient) async throws {
        try await eventually(timeout: .seconds(20), "the bridge carries telemetry") {
            try publish(publisher, 1)
            try await Task.sleep(for: .milliseconds(200))
            return (try? groundSequences().contains(1)) == true
        }
        for sequence in UInt32(2)...20 { try publish(publisher, sequence) }
        try await eventually(timeout: .seconds(10), "the ground logged 1…20") { try groundSequences().last == 20 }
        // 21…40 go out once the board's broker has noticed the cut: its bridge reconnects and is refused. A fixed
        // 300 ms was a race on a busy machine: a broker that had not yet read the cut queued 22…40 for its
        // (persistent) bridge session and delivered them live when the radio came back — only 21 was recovered by
        // the sync. So was a retry every second (restart_timeout 1 1): the proxy accepts each attempt before it
        // closes it, and a broker that read the publishes late, during the next attempt, queued them again (a
        // clean-clone CI run under load). Every 4 s leaves the broker 4 s of a plainly closed bridge.
        let refusedBefore = proxy.refusedConnections
        proxy.cut()
        try await eventually(timeout: .seconds(20), "the board's bridge noticed the cut: \(output())") {
            proxy.refusedConnections > refusedBefore
        }
        for sequence in UInt32(21)...40 { try publish(publisher, sequence) }
        try await eventually(timeout: .seconds(10), "the board logged 1…40") { try boardSequences().contains(40) }
        proxy.restore()
        try await eventually(timeout: .seconds(20), "the bridge is back") {
            try publish(publisher, 41)
            try await Task.sleep(for: .milliseconds(200))
            return (try? groundSequences().contains(41)) == true
        }
        for sequence in UInt32(42)...60 { try publish(publisher, sequence) }
        try await eventually(timeout: .seconds(10), "the board logged 1…60") { try boardSequences().contains(60) }
    }

    /// DroneState `sequence` (QoS 0, as drone-link publishes it), stamped 1 s apart on the sender's clock: the 20
    /// stamps of the outage span longer than the ground sees it, so recovered records meet the end of their gap
    /// on the ground's clock (where they must still go before the record after it), on a quiet or a busy machine.
    /// Sequence 1 and 41 are re-sent until they cross: the same message, so a receiver keeps one of each.
    func publish(_ client: MQTTClient, _ sequence: UInt32) throws {
        let state = DroneState(sequence: sequence, timestampUs: 1_700_000_000_000_000 + Int64(sequence) * 1_000_000,
                               navdataSequence: sequence, stateBits: 0, controlState: .landed, batteryPercent: 80,
                               altitudeM: 0, pitchDeg: 0, rollDeg: 0, yawDeg: 0, velocityXMps: 0, velocityYMps: 0,
                               velocityZMps: 0)
        try client.publish(topic: Topics.droneState.topic(for: Self.drone), payload: try state.encoded(), qos: 0,
                           retain: false)
    }

    @discardableResult
    func startLogger(broker port: UInt16, dir: URL, _ extra: [String]) async throws -> ChildProcess {
        let child = try ChildProcess(
            executable: TestEnvironment.executable("telemetry-logger").path,
            arguments: ["record", "--broker", "127.0.0.1:\(port)", "--drone", "drone1", "--dir", dir.path,
                        "--fsync-interval-ms", "100", "--client-id", "logger-\(dir.lastPathComponent)"] + extra,
            name: "telemetry-logger-\(dir.lastPathComponent)", logDirectory: board.directory)
        children.append(child)
        // The broker takes any name without a password file.
        let watcher = try await MessageRecorder(port: port, username: "watch", password: "watch",
                                                filters: [Topics.status(service: "telemetry-logger",
                                                    drone: Self.drone)])
        defer { watcher.shutdown() }
        try await eventually(timeout: TestEnvironment.readinessTimeout, "logger online: \(child.output())") {
            watcher.all.contains { watcher.text($0).contains(#""state":"online""#) }
        }
        return child
    }

    func client(port: UInt16, id: String) async throws -> MQTTClient {
        var log = Logger(label: "test.\(id)")
        log.logLevel = .warning
        let client = try MQTTClient(configuration: .init(port: Int32(port), clientId: id), logger: log)
        try client.start()
        guard await client.waitUntilConnected(
            timeout: TestEnvironment.readinessTimeout) else { throw TestEnvironmentError.timeout(id) }
        return client
    }

    func runLogger(_ arguments: [String]) throws -> (code: Int32?, output: String) {
        let child = try ChildProcess(executable: TestEnvironment.executable("telemetry-logger").path,
                                     arguments: arguments, name: "telemetry-logger-\(arguments[0])",
                                     logDirectory: ground.directory)
        let code = child.waitForExit(timeout: .seconds(60))
        return (code, child.output())
    }

    func logFiles(_ dir: URL) throws -> [URL] {
        guard FileManager.default.fileExists(atPath: dir.path) else { return [] }
        return try FileManager.default.contentsOfDirectory(at: dir, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "qlog" }.sorted { $0.path < $1.path }
    }

    /// Every record of every file in `dir`, each file in receive order.
    func logRecords(_ dir: URL) throws -> [LogRecord] {
        try logFiles(dir).flatMap { file -> [LogRecord] in
            guard let reader = try? LogReader(bytes: Array(Data(contentsOf: file))) else { return [] }
            return RecoveredOrder.inReceiveOrder(reader.readAll().records)
        }
    }

    func sequences(_ dir: URL) throws -> [UInt32] {
        try logRecords(dir).filter { $0.topic == Topics.droneState.topic(for: Self.drone) }
            .compactMap { RecordKey($0)?.sequence }
    }

    /// Duplicates of the re-sent probes (1, 41) removed: the test sends those until they cross.
    func groundSequences() throws -> [UInt32] { Self.withoutProbeRepeats(try sequences(groundDir)) }
    func boardSequences() throws -> [UInt32] { try sequences(boardDir) }

    static func withoutProbeRepeats(_ sequences: [UInt32]) -> [UInt32] {
        var seen: Set<UInt32> = []
        return sequences.filter { !([1, 41].contains($0) && !seen.insert($0).inserted) }
    }

    /// `telemetry-logger export --format jsonl` of the drone's logs: the telemetry/drone sequences in order.
    func exportSequences(_ dir: URL) throws -> [UInt32] {
        let files = try logFiles(dir).map(\.path)
        guard !files.isEmpty else { return [] }
        let result = try runLogger(["export"] + files + ["--format", "jsonl", "--drone", "drone1"])
        #expect(result.code == 0, "\(result.output)")
        let sequences = result.output.split(separator: "\n").compactMap { line -> UInt32? in
            guard line.contains(#""topic":"quad/drone1/telemetry/drone""#),
                  let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            else { return nil }
            return (object["sequence"] as? NSNumber)?.uint32Value
        }
        return Self.withoutProbeRepeats(sequences)
    }

    func output() -> String { children.map { $0.output() }.joined(separator: "\n---\n") }
}
