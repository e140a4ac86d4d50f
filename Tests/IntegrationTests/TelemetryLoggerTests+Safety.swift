import FlightLog
import Foundation
import ProcessSupport
import QuadProtocol
import Testing

/// Replay never flies a live drone by default; `--drone` narrows tail and record; errors are sentences.
extension TelemetryLoggerTests {
    /// A log as a drone-controller session leaves it: commands, target, claim, telemetry, retained state and
    /// retained presence.
    func writeFlightLog(_ name: String) throws -> (path: String, topics: [String]) {
        let drone = "quad/drone1"
        let presence = ServiceStatus(state: .online, service: "drone-controller", version: "1", startedAt: 1,
                                     pid: 7).encodedJSON()
        let messages: [(String, [UInt8], Bool)] = [
            ("\(drone)/status/drone-controller", presence, true),
            ("\(drone)/pilot/claim", Array("claim".utf8), false),
            ("\(drone)/command", Array("takeoff".utf8), false),
            ("\(drone)/target", Array(#"{"lat":52.5163,"lon":13.3777}"#.utf8), false),
            ("\(drone)/telemetry/drone", [1, 2, 3], false),
            ("\(drone)/telemetry/position", [4, 5, 6], false),
            ("\(drone)/telemetry/controller", [7, 8], true),
            ("\(drone)/command", Array("emergency".utf8), false),
            ("\(drone)/command", Array("reset".utf8), false),
        ]
        var bytes = try LogFileHeader(createdUs: 1_700_000_000_000_000, note: "test").encoded()
        for (index, (topic, payload, retain)) in messages.enumerated() {
            bytes += try LogRecord(receiveTimeUs: 1_700_000_000_000_000 + Int64(index) * 1000, topic: topic,
                                   payload: payload, retain: retain, qos: 1).encoded()
        }
        let url = broker.directory.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return (url.path, messages.map(\.0))
    }

    @Test("replay: nothing on quad/#, every record under replay/quad/…, nothing retained")
    func replayStaysOffLiveTopics() async throws {
        let (log, topics) = try writeFlightLog("flight.qlog")
        let bus = try await BusRecorder(port: broker.port, id: "replay-watch", filters: ["quad/#", "replay/#"])
        let (code, output) = try run(["replay", log, "--broker", broker.address, "--speed", "0"])
        #expect(code == 0, "\(output)")
        try await eventually(timeout: TestEnvironment.readinessTimeout,
                             "replayed messages") { bus.all.count >= topics.count }
        try await Task.sleep(for: .milliseconds(300))
        let received = bus.all
        #expect(received.filter { $0.topic.hasPrefix("quad/") }.map(\.topic) == [])
        #expect(received.map(\.topic) == topics.map { "replay/\($0)" })
        #expect(received.allSatisfy { !$0.retain })
        #expect(output.contains("replayed 9 of 9 records"), "\(output)")
        // Nothing was left retained either: a late subscriber gets nothing.
        let late = try await BusRecorder(port: broker.port, id: "replay-late", filters: ["replay/#", "quad/#"])
        try await Task.sleep(for: .milliseconds(300))
        #expect(late.all.isEmpty, "\(late.all.map(\.topic))")
    }

    @Test("replay --live: refused (exit 1) while the controller's retained presence is online, allowed offline")
    func replayLiveNeedsControllerOffline() async throws {
        let (log, _) = try writeFlightLog("live.qlog")
        let bus = try await BusRecorder(port: broker.port, id: "live-watch", filters: ["quad/#"])
        func presence(_ state: ServiceStatus.State) async throws {
            let status = ServiceStatus(state: state, service: "drone-controller", version: "1", startedAt: 1, pid: 9)
            try await bus.publish("quad/drone1/status/drone-controller", status.encodedJSON(), retain: true)
        }
        try await presence(.online)
        var (code, output) = try run(["replay", log, "--live", "--broker", broker.address, "--speed", "0"])
        #expect(code == 1, "\(output)")
        #expect(output.contains("replay --live refused: drone1's drone-controller is online"), "\(output)")
        try await Task.sleep(for: .milliseconds(300))
        #expect(bus.messages(on: "quad/drone1/command").isEmpty)

        try await presence(.offline)
        (code, output) = try run(["replay", log, "--live", "--broker", broker.address, "--speed", "0"])
        #expect(code == 0, "\(output)")
        try await eventually(timeout: TestEnvironment.readinessTimeout,
                             "live commands") { bus.messages(on: "quad/drone1/command").count == 3 }
        #expect(bus.messages(on: "quad/drone1/telemetry/position").count == 1)
        // Presence is never replayed live: only the two the test published itself.
        #expect(bus.messages(on: "quad/drone1/status/drone-controller").count == 2)
        #expect(output.contains("skipped 1 record(s): presence is never replayed on live topics"), "\(output)")
    }

    @Test("tail --drone drone9 prints only drone9; without --drone both drones")
    func tailOneDrone() async throws {
        let narrowed = try logger(["tail", "--broker", broker.address, "--drone", "drone9"])
        defer { narrowed.stop() }
        let everyone = try logger(["tail", "--broker", broker.address], environment: ["QUAD_DRONE": "drone9"])
        defer { everyone.stop() }
        let publisher = try await connectedClient("tail-drone-publisher")
        defer { publisher.shutdown() }
        try await eventually(timeout: .seconds(30), "drone9 and drone1 lines") {
            for drone in ["drone1", "drone9"] {
                try publisher.publish(topic: "quad/\(drone)/command", payload: Array("hover".utf8), qos: 0,
                                      retain: false)
            }
            try await Task.sleep(for: .milliseconds(200))
            return narrowed.output().contains("quad/drone9/command")
                && everyone.output().contains("quad/drone9/command") && everyone.output().contains("quad/drone1/")
        }
        #expect(!narrowed.output().contains("quad/drone1/"), "\(narrowed.output())")
    }

    @Test("tail --drone with a --topic naming another drone: a usage error, exit non-zero")
    func tailDroneTopicConflict() throws {
        let (code, output) = try run(["tail", "--broker", broker.address, "--drone", "drone9",
                                      "--topic", "quad/drone1/#"])
        #expect(code != 0)
        #expect(output.contains("--topic 'quad/drone1/#' cannot be narrowed to --drone drone9"), "\(output)")
    }

    @Test("record --drone drone9 records only drone9's messages")
    func recordOneDrone() async throws {
        let recorder = try await startRecorder(only: "drone9")
        let publisher = try await connectedClient("record-drone-publisher")
        defer { publisher.shutdown() }
        for index in 0..<20 {
            for drone in ["drone1", "drone9"] {
                try await publish(publisher, topic: "quad/\(drone)/telemetry/link", payload: [UInt8(index)], qos: 1)
            }
        }
        try await eventually(timeout: .seconds(30), "drone9's 20 records") {
            try readLogs().records.filter { $0.topic == "quad/drone9/telemetry/link" }.count == 20
        }
        try await Task.sleep(for: .milliseconds(300))
        #expect(recorder.stop(signal: SIGTERM, timeout: .seconds(20)) == 0, "\(recorder.output())")
        let topics = Set(try readLogs().records.map(\.topic))
        #expect(!topics.contains { $0.hasPrefix("quad/drone1/") }, "\(topics)")
        #expect(try logFiles().allSatisfy { $0.lastPathComponent.hasPrefix("drone9-") })
    }

    @Test("export, recover and replay of a file that is no flight log: one sentence naming it, exit 1",
          arguments: [["export", "--format", "csv"], ["recover"], ["replay", "--speed", "0"]])
    func notAFlightLog(command: [String]) throws {
        let file = broker.directory.appendingPathComponent("route.csv")
        try Data("lat,lon\n52.5,13.4\n".utf8).write(to: file)
        let (code, output) = try run([command[0], file.path] + command.dropFirst()
                                     + (command[0] == "replay" ? ["--broker", broker.address] : []))
        #expect(code == 1, "\(output)")
        #expect(output.contains("Error: \(file.path): not a .qlog flight log (bad magic)"), "\(output)")
        #expect(!output.contains("badMagic"), "\(output)")
    }

    @Test("a missing log: 'cannot read FILE: No such file or directory', the path said once")
    func missingLog() throws {
        let path = broker.directory.appendingPathComponent("missing.qlog").path
        let (code, output) = try run(["export", path, "--format", "csv"])
        #expect(code == 1, "\(output)")
        #expect(output.contains("Error: cannot read \(path): No such file or directory"), "\(output)")
    }
}
