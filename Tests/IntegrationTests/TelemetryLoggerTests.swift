import FlightLog
import Foundation
import ProcessSupport
import Logging
import QuadMQTT
import QuadProtocol
import Testing

/// The real telemetry-logger binary against a private mosquitto: lossless recording, crash recovery, export,
/// live tail.
@Suite("telemetry-logger", .offPool, .serialized, .enabled(if: TestEnvironment.available("mosquitto")))
struct TelemetryLoggerTests {
    let broker: BrokerProcess
    let logDir: URL

    init() throws {
        // The repo config caps a subscriber's queue at 1000 messages; past that mosquitto itself drops (the logger
        // never sees them). The full-rate bursts here would hit that cap on a loaded machine.
        broker = try BrokerProcess(extraConfig: "max_queued_messages 1000000")
        logDir = broker.directory.appendingPathComponent("logs")
    }

    @Test("--help lists every subcommand")
    func help() throws {
        let (code, output) = try run(["--help"])
        #expect(code == 0, "\(output)")
        for subcommand in ["record", "tail", "export", "replay", "recover", "sync"] {
            #expect(output.contains(subcommand), "\(subcommand) missing from:\n\(output)")
        }
    }

    @Test("2000 messages at full rate: after SIGTERM the logs hold exactly them, byte for byte, per drone")
    func recordsEverything() async throws {
        let recorder = try await startRecorder()
        let publisher = try await connectedClient("publisher")
        defer { publisher.shutdown() }
        var generator = Bytes(seed: 42)
        var published: [String: [(payload: [UInt8], qos: UInt8)]] = [:]
        for index in 0..<2000 {
            let (topic, payload, qos) = Self.message(index, &generator)
            try await publish(publisher, topic: topic, payload: payload, qos: qos)
            published[topic, default: []].append((payload, UInt8(qos)))
        }
        try await eventually(timeout: .seconds(60), "all 2000 records on disk") {
            try readLogs().records.filter { published[$0.topic] != nil }.count >= 2000
        }
        #expect(recorder.stop(signal: SIGTERM, timeout: .seconds(20)) == 0, "\(recorder.output())")

        let logs = try readLogs()
        #expect(logs.problems.isEmpty)
        let recorded = logs.records.filter { published[$0.topic] != nil }
        #expect(recorded.count == 2000)
        for (topic, expected) in published {
            let got = recorded.filter { $0.topic == topic }
            #expect(got.map(\.payload) == expected.map(\.payload), "payloads on \(topic)")
            #expect(got.map(\.qos) == expected.map(\.qos), "QoS on \(topic)")
            #expect(got.allSatisfy { !$0.retain })
        }
        // One file per drone, named <drone>-<UTC>.qlog, each starting with a valid header.
        let names = try logFiles().map(\.lastPathComponent)
        #expect(names.filter { $0.hasPrefix("fleet1-") }.count == 1, "\(names)")
        #expect(names.filter { $0.hasPrefix("fleet2-") }.count == 1, "\(names)")
        for file in try logFiles() {
            #expect(try LogReader(bytes: Array(Data(contentsOf: file))).header?.formatVersion == 1)
        }
        #expect(recorder.output().contains("dropped=0 lost=0"), "\(recorder.output())")
    }

    @Test("--share: two loggers in one MQTT 5 group split the messages, each recorded exactly once")
    func sharedSubscription() async throws {
        let first = try await startRecorder(drone: "share1", ["--share", "loggers", "--mqtt-version", "5"])
        let second = try await startRecorder(drone: "share2", ["--share", "loggers", "--mqtt-version", "5"])
        let publisher = try await connectedClient("share-publisher")
        defer { publisher.shutdown() }
        let payloads = (0..<400).map { index in Array("message \(index)".utf8) }
        for payload in payloads {
            try await publish(publisher, topic: "quad/shared1/telemetry/link", payload: payload, qos: 1)
        }
        try await eventually(timeout: .seconds(30), "400 records") {
            try readLogs().records.filter { $0.topic == "quad/shared1/telemetry/link" }.count >= 400
        }
        #expect(first.stop(signal: SIGTERM, timeout: .seconds(20)) == 0, "\(first.output())")
        #expect(second.stop(signal: SIGTERM, timeout: .seconds(20)) == 0, "\(second.output())")
        let recorded = try readLogs().records.filter { $0.topic == "quad/shared1/telemetry/link" }.map(\.payload)
        #expect(recorded.count == 400)
        #expect(Set(recorded) == Set(payloads))
        // Both members got a share (mosquitto deals round-robin).
        #expect(try logFiles().filter { $0.lastPathComponent.hasPrefix("shared1-") }.count == 2)
    }

    @Test("kill -9 mid-write: every complete record is recovered; a torn tail is reported by recover, exit 0")
    func crashRecovery() async throws {
        let recorder = try await startRecorder()
        let publisher = try await connectedClient("crash-publisher")
        defer { publisher.shutdown() }
        let topic = "quad/crash1/telemetry/drone"
        var generator = Bytes(seed: 7)
        let payloads = (0..<20_000).map { _ in generator.next(count: 200 + generator.nextIndex(1800)) }
        let feeder = Task {
            for payload in payloads where !Task.isCancelled {
                try? await publish(publisher, topic: topic, payload: payload, qos: 1)
            }
        }
        try await eventually(timeout: .seconds(60), "logger writing") { try readLogs().records.count >= 2000 }
        #expect(recorder.stop(signal: SIGKILL) == 128 + SIGKILL)
        feeder.cancel()
        _ = await feeder.value

        let file = try #require(try logFiles().first { $0.lastPathComponent.hasPrefix("crash1-") })
        let bytes = Array(try Data(contentsOf: file))
        let result = try LogReader(bytes: bytes).readAll()
        // What is on disk is exactly the first records received, in order, none damaged.
        let recorded = result.records.map(\.payload)
        let mismatch = Array(zip(recorded, payloads)).firstIndex { $0.0 != $0.1 }
        #expect(mismatch == nil, "record \(mismatch ?? -1) of \(recorded.count) is not the message published then")
        #expect(result.problems.allSatisfy { if case .tornTail = $0 { true } else { false } })
        var (code, output) = try run(["recover", file.path])
        #expect(code == (result.problems.isEmpty ? 0 : 65), "\(output)")
        #expect(output.contains("\(result.records.count) good records"), "\(output)")

        // SIGKILL rarely cuts a write(2) short, so cut the last record in half as a power loss would.
        let lastOffset = try #require(try LogReader(bytes: bytes).compactMap { event -> Int? in
            if case .record(_, let offset) = event { offset } else { nil }
        }.last)
        let torn = broker.directory.appendingPathComponent("torn.qlog")
        try Data(bytes.prefix(lastOffset + 50)).write(to: torn)
        (code, output) = try run(["recover", torn.path])
        #expect(code == 65, "damage exits 65: \(output)")
        #expect(output.contains("\(result.records.count - 1) good records"), "\(output)")
        #expect(output.contains("torn tail at offset"), "\(output)")
        (code, output) = try run(["check", broker.directory.appendingPathComponent("missing.qlog").path])
        #expect(code != 0)
        #expect(output.contains("cannot read"), "\(output)")
    }

    @Test("a recorded flight exports to valid GPX, KML, SVG, CSV and JSON Lines",
          .enabled(if: TestEnvironment.available("xmllint", "rsvg-convert")))
    func exportFlight() async throws {
        let recorder = try await startRecorder()
        let publisher = try await connectedClient("flight-publisher")
        defer { publisher.shutdown() }
        let messages = Self.flight()
        for (topic, payload) in messages {
            try await publisher.publishAndWait(topic: topic, payload: payload, qos: 1, retain: false,
                timeout: TestEnvironment.readinessTimeout)
            try await Task.sleep(for: .milliseconds(10))
        }
        try await eventually(timeout: .seconds(30), "flight recorded") {
            try readLogs().records.filter { $0.topic.hasPrefix("quad/flight1/") }.count == messages.count
        }
        #expect(recorder.stop(signal: SIGTERM, timeout: .seconds(20)) == 0, "\(recorder.output())")

        // Rotation at takeoff: the two records before it are in the first file, the flight in the second.
        let files = try logFiles().filter { $0.lastPathComponent.hasPrefix("flight1-") }
            .map { ($0, try LogReader(bytes: Array(Data(contentsOf: $0)))) }
            .sorted { ($0.1.header?.createdUs ?? 0) < ($1.1.header?.createdUs ?? 0) }
        try #require(files.count == 2, "\(files.map(\.0.lastPathComponent))")
        #expect(files[0].1.readAll().records.count == 2)
        let logs = files.map(\.0.path)

        func export(_ format: String) throws -> URL {
            let out = broker.directory.appendingPathComponent("flight.\(format)")
            let (code, output) = try run(["export"] + logs + ["--format", format, "--out", out.path])
            #expect(code == 0, "\(format): \(output)")
            return out
        }
        let xsd = TestEnvironment.repoRoot.appendingPathComponent("Tests/FlightLogTests/Fixtures/gpx-1.1.xsd")
        #expect(try tool("xmllint", ["--noout", "--schema", xsd.path, export("gpx").path]) == 0)
        #expect(try tool("xmllint", ["--noout", export("kml").path]) == 0)
        let png = broker.directory.appendingPathComponent("flight.png")
        #expect(try tool("rsvg-convert", ["-o", png.path, export("svg").path]) == 0)
        let csv = try String(contentsOf: export("csv"), encoding: .utf8)
        #expect(csv.components(separatedBy: "\r\n").filter { !$0.isEmpty }.count == messages.count + 1)
        let jsonl = try String(contentsOf: export("jsonl"), encoding: .utf8).split(separator: "\n")
        #expect(jsonl.count == messages.count)
        for line in jsonl {
            #expect(try JSONSerialization.jsonObject(with: Data(line.utf8)) is [String: Any], "\(line)")
        }

        // The logger's own presence file has no positions: a clear error, non-zero exit.
        let presence = try #require(try logFiles().first { $0.lastPathComponent.hasPrefix("logger1-") })
        let (code, output) = try run(["export", presence.path, "--format", "gpx"])
        #expect(code != 0)
        #expect(output.contains("no position fixes in \(presence.path)"), "\(output)")
    }

    @Test("tail --json prints a decodable JSON line per message")
    func tailJSON() async throws {
        let tail = try logger(["tail", "--json", "--broker", broker.address, "--topic", "quad/tail1/#"])
        defer { tail.stop() }
        let publisher = try await connectedClient("tail-publisher")
        defer { publisher.shutdown() }
        let fix = try PositionFix(sequence: 3, timestampUs: 1_700_000_000_000_000, latitudeDeg: 52.5163,
                                  longitudeDeg: 13.3777, altitudeM: 41.5, satellites: 9, source: .droneGPS).encoded()
        var line: Substring?
        try await eventually(timeout: .seconds(30), "a JSON line from tail") {
            try publisher.publish(topic: "quad/tail1/telemetry/position", payload: fix, qos: 0, retain: false)
            try await Task.sleep(for: .milliseconds(200))
            line = tail.output().split(separator: "\n").first { $0.hasPrefix("{") }
            return line != nil
        }
        let object = try #require(try JSONSerialization.jsonObject(with: Data((line ?? "").utf8)) as? [String: Any])
        #expect(object["topic"] as? String == "quad/tail1/telemetry/position")
        #expect(object["type"] as? String == "position_fix")
        #expect(object["latitude_deg"] as? Double == 52.5163)
        #expect(object["receive_time_us"] is NSNumber)
    }

    @Test("tail without --json: one human line per message, undecodable payloads say why")
    func tailHuman() async throws {
        let tail = try logger(["tail", "--broker", broker.address, "--topic", "quad/tail2/#"])
        defer { tail.stop() }
        let publisher = try await connectedClient("tail-human-publisher")
        defer { publisher.shutdown() }
        try await eventually(timeout: .seconds(30), "an undecodable line from tail") {
            try publisher.publish(topic: "quad/tail2/telemetry/drone", payload: [0xFF, 0x00], qos: 0, retain: false)
            try await Task.sleep(for: .milliseconds(200))
            return tail.output().contains("quad/tail2/telemetry/drone !undecodable: ")
        }
    }

    @Test("record fails loudly (exit 1) on a refused subscription and refuses --share without MQTT 5 (exit 64)")
    func refusedSubscription() throws {
        let refusing = try ProtocolRefusingBroker(accepting311: true, subackCode: 0x80)
        let child = try logger(["record", "--broker", refusing.address, "--dir", logDir.path])
        let code = child.waitForExit(timeout: TestEnvironment.readinessTimeout)
        if code == nil { child.stop(signal: SIGTERM) }
        let output = child.output()
        #expect(code == 1, "\(output)")
        #expect(output.contains("broker \(refusing.address) refused the subscription to quad/+/telemetry/#"),
            "\(output)")
        #expect(output.contains("nothing would be recorded"), "\(output)")

        for version in [[], ["--mqtt-version", "3.1.1"], ["--mqtt-version", "auto"]] {
            let (shareCode, shareOutput) = try run(["record", "--share", "g", "--broker", broker.address,
                                                    "--dir", logDir.path] + version)
            #expect(shareCode == 64, "usage: \(shareOutput)")
            #expect(shareOutput.contains("--share needs --mqtt-version 5"), "\(shareOutput)")
        }
    }

    // MARK: - Helpers

    /// Starts `record` into `logDir` and waits for its online status (its subscriptions are made by then).
    /// `drone` names the logger's presence (QUAD_DRONE: every drone is recorded); `only` passes `--drone`.
    /// `dir`: instead of `logDir`; `name`: the process's own output file (several loggers at once).
    func startRecorder(drone: String = "logger1", _ extra: [String] = [], only: String? = nil, dir: URL? = nil,
                       name: String = "telemetry-logger") async throws -> ChildProcess {
        let presenceDrone = only ?? drone
        let watcher = try await connectedClient("recorder-watcher-\(presenceDrone)")
        defer { watcher.shutdown() }
        let status = try watcher.subscribe("quad/\(presenceDrone)/status/telemetry-logger")
        let recorder = try logger(["record", "--broker", broker.address, "--dir", (dir ?? logDir).path,
                                   "--fsync-interval-ms", "200"] + (only.map { ["--drone", $0] } ?? []) + extra,
                                  environment: ["QUAD_DRONE": drone], name: name)
        var iterator = status.makeAsyncIterator()
        let online = Task { () -> Bool in
            while let message = await iterator.next() {
                if String(decoding: message.payload, as: UTF8.self).contains(#""state":"online""#) { return true }
            }
            return false
        }
        let timeout = Task {
            try await Task.sleep(for: .seconds(20))
            online.cancel()
        }
        defer { timeout.cancel() }
        guard await online.value else { throw TestEnvironmentError.timeout("logger online: \(recorder.output())") }
        return recorder
    }

    func logger(_ arguments: [String], environment: [String: String] = [:], name: String = "telemetry-logger") throws
        -> ChildProcess {
        try ChildProcess(executable: TestEnvironment.executable("telemetry-logger").path, arguments: arguments,
                         name: name, logDirectory: broker.directory, environment: environment)
    }

    /// Runs a subcommand to its end: exit code and stdout + stderr.
    func run(_ arguments: [String]) throws -> (Int32?, String) {
        let child = try logger(arguments)
        let code = child.waitForExit(timeout: .seconds(120))
        return (code, child.output())
    }

    func tool(_ name: String, _ arguments: [String]) throws -> Int32? {
        let child = try ChildProcess(executable: TestEnvironment.requireTool(name), arguments: arguments,
                                     logDirectory: broker.directory)
        let code = child.waitForExit(timeout: .seconds(60))
        if code != 0 { Issue.record("\(name) \(arguments): \(child.output())") }
        return code
    }

    func connectedClient(_ id: String) async throws -> MQTTClient {
        var log = Logger(label: "test.\(id)")
        log.logLevel = .warning
        let client = try MQTTClient(configuration: .init(port: Int32(broker.port), clientId: id), logger: log)
        try client.start()
        guard await client.waitUntilConnected(
            timeout: TestEnvironment.readinessTimeout) else { throw TestEnvironmentError.timeout("\(id)") }
        return client
    }

    /// Publishes, waiting while the client's QoS 1 window is full.
    func publish(_ client: MQTTClient, topic: String, payload: [UInt8], qos: Int32) async throws {
        while true {
            do {
                try client.publish(topic: topic, payload: payload, qos: qos, retain: false)
                return
            } catch .offlineQueueFull {
                try await Task.sleep(for: .milliseconds(1))
            }
        }
    }

    func logFiles(in dir: URL? = nil) throws -> [URL] {
        try FileManager.default.contentsOfDirectory(at: dir ?? logDir, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "qlog" }
    }

    /// Every record and problem of every log file (files may be read while the logger writes them).
    func readLogs(in dir: URL? = nil) throws -> LogReadResult {
        guard FileManager.default.fileExists(atPath: (dir ?? logDir).path) else { return LogReadResult() }
        var all = LogReadResult()
        for file in try logFiles(in: dir) {
            guard let reader = try? LogReader(bytes: Array(Data(contentsOf: file))) else { continue }
            let result = reader.readAll()
            all.records += result.records
            all.problems += result.problems
        }
        return all
    }
}
