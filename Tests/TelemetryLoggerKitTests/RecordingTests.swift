import FlightLog
import InMemoryMQTT
import LogSync
import QuadMQTT
import QuadProtocol
import QuadService
import Testing
@testable import TelemetryLoggerKit

private typealias F = LoggerFixtures

/// `record` over the in-memory broker, writing to a temporary directory.
@Suite("telemetry-logger record")
struct RecordingTests {
    @Test("record writes every message of its filters, in arrival order, byte for byte, and nothing else")
    func recordsEveryMessageInOrder() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let broker = InMemoryBroker()
        let stop = StopSwitch()
        let runtime = F.runtime(broker)
        let running = Task { try await F.recording(directory).run(runtime, until: [stop]) }
        try await F.waitUntilOnline(broker)
        let d = F.drone1.rawValue
        let recorded = [
            F.message("quad/\(d)/telemetry/drone", F.droneState(1, timestampUs: 1_000), qos: 0),
            F.message("quad/\(d)/status/navigator", Array(#"{"state":"online"}"#.utf8)),
            F.message("quad/\(d)/target", [1, 2, 3]),
            F.message("quad/\(d)/telemetry/drone", F.droneState(2, timestampUs: 2_000), qos: 0),
            F.message("quad/\(d)/command", [4]),
            F.message("quad/\(d)/pilot/claim", [5, 6]),
            F.message("quad/\(d)/telemetry/position", [7]),
        ]
        let notRecorded = [
            F.message("quad/\(d)/flight/command", [9]),
            F.message("quad/\(d)/log/sync/request", [9]),
            F.message("replay/quad/\(d)/target", [9]),
            F.message("elsewhere/\(d)", [9]),
        ]
        // Interleaved: what is not recorded must not disturb the order of what is.
        for (index, message) in recorded.enumerated() {
            broker.inject(message)
            if index < notRecorded.count { broker.inject(notRecorded[index]) }
        }
        stop.stop()
        try await running.value

        #expect(directory.logs.count == 1)
        let ownPresence = Topics.status(service: "telemetry-logger", drone: F.drone1)
        let records = try directory.records(of: d).filter { $0.topic != ownPresence }
        #expect(records.map(\.topic) == recorded.map(\.topic))
        #expect(records.map(\.payload) == recorded.map(\.payload))
        #expect(records.map(\.qos) == recorded.map { UInt8($0.qos) })
        #expect(records.map(\.receiveTimeUs) == records.map(\.receiveTimeUs).sorted())
    }

    @Test("a refused subscription ends record with the broker's refusal (exit 1), not a quiet empty log")
    func refusedSubscriptionFails() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let broker = InMemoryBroker()
        broker.refuse(filter: "quad/+/pilot/#")
        let runtime = F.runtime(broker)
        let stop = StopSwitch()
        let failure = await #expect(throws: LoggerError.self) {
            try await F.recording(directory).run(runtime, until: [stop])
        }
        #expect(failure.map { "\($0)" }?.contains("the broker refused the subscription to quad/+/pilot/#") == true)
    }

    @Test("--answer-sync answers a request with exactly the missing records from the files in --dir")
    func answersSyncRequests() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        // The board's finished log: drone1's DroneState 1…10.
        let t0: Int64 = 1_700_000_000_000_000
        let topic = Topics.droneState.topic(for: F.drone1)
        let board = try (UInt32(1)...10).map { sequence in
            try LogRecord(receiveTimeUs: t0 + Int64(sequence) * 100_000 + 500, topic: topic,
                          payload: F.droneState(sequence, timestampUs: t0 + Int64(sequence) * 100_000))
        }
        let name = LogFileNaming.fileName(drone: F.drone1, started: WallInstant(us: t0))
        try FileBytes.write(directory.path + "/" + name,
                            try LogFileHeader(createdUs: t0).encoded() + board.flatMap { $0.encoded() })

        let broker = InMemoryBroker()
        let stop = StopSwitch()
        let runtime = F.runtime(broker)
        let running = Task { try await F.recording(directory, answerSync: true).run(runtime, until: [stop]) }
        try await F.waitUntilOnline(broker)
        let request = SyncRequest(id: 42, requester: "ground-1", ranges: [
            SyncRequest.Range(path: "telemetry/drone", first: 4, last: 7, notBeforeUs: t0, notAfterUs: t0 + 2_000_000),
        ])
        broker.inject(F.message(Topics.logSyncRequest.topic(for: F.drone1), try request.encoded()))
        let responseTopic = Topics.logSyncResponse(drone: F.drone1, requester: "ground-1")
        _ = await eventually { !broker.published(matching: responseTopic).isEmpty }
        stop.stop()
        try await running.value

        let responses = try broker.published(matching: responseTopic).map { try SyncResponse(decoding: $0.payload) }
        #expect(responses.count == 1)
        #expect(responses.allSatisfy { $0.requestId == 42 && $0.status == .complete })
        #expect(responses.flatMap(\.records) == Array(board[3...6]))
    }
}

extension RecordingTests {
    @Test("--answer-sync with --shard answers only its own drones' requests (the partner answers the others)")
    func shardAnswersOwnDronesOnly() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        // drone1 is in shard 0 of 2, drone2 in shard 1: this logger is shard 1.
        #expect(DroneSelection.shard(of: F.drone1, count: 2) == 0 && DroneSelection.shard(of: F.drone2, count: 2) == 1)
        let broker = InMemoryBroker()
        let stop = StopSwitch()
        let runtime = F.runtime(broker)
        let recording = F.recording(directory, drones: .shard(index: 1, count: 2), answerSync: true)
        let running = Task { try await recording.run(runtime, until: [stop]) }
        try await F.waitUntilOnline(broker)
        for (id, drone) in [(UInt32(1), F.drone1), (2, F.drone2)] {
            let request = SyncRequest(id: id, requester: "ground-1", ranges: [
                SyncRequest.Range(path: "telemetry/drone", first: 1, last: 2, notBeforeUs: 0, notAfterUs: 1_000_000),
            ])
            broker.inject(F.message(Topics.logSyncRequest.topic(for: drone), try request.encoded()))
        }
        // Requests are answered one at a time, in order: once drone2's is answered, drone1's was passed over.
        let drone2Answers = Topics.logSyncResponse(drone: F.drone2, requester: "ground-1")
        _ = await eventually { !broker.published(matching: drone2Answers).isEmpty }
        stop.stop()
        try await running.value
        #expect(try broker.published(matching: drone2Answers)
            .map { try SyncResponse(decoding: $0.payload).requestId } == [2])
        #expect(broker.published(matching: Topics.logSyncResponse(drone: F.drone1, requester: "ground-1")).isEmpty)
    }
}

@Suite("telemetry-logger replay")
struct ReplayTests {
    @Test("replay republishes a log's messages under replay/…, in order, never retained, never on the live topics")
    func republishesUnderReplay() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let topics = ["quad/drone1/telemetry/drone", "quad/drone1/target", "quad/drone1/command",
                      "quad/drone1/status/drone-controller"]
        let records = try topics.enumerated().map { index, topic in
            try LogRecord(receiveTimeUs: 1_000 + Int64(index) * 10, topic: topic, payload: [UInt8(index)],
                          retain: topic.contains("status"), qos: 1)
        }
        let path = directory.path + "/drone1-replay.qlog"
        try FileBytes.write(path, try LogFileHeader(createdUs: 1_000).encoded() + records.flatMap { $0.encoded() })
        let log = try LoadedLog(path: path)

        let broker = InMemoryBroker()
        let client = broker.connect(clientId: "replay")
        try client.start()
        let (published, skipped) = try await ReplayCommand.replay(
            log.records, routing: ReplayRouting(destination: .replayRoot), speed: 0, client: client)

        #expect(published == 4 && skipped.isEmpty)
        #expect(broker.published.map(\.topic) == topics.map { "replay/" + $0 })
        #expect(broker.published.map(\.payload) == [[0], [1], [2], [3]])
        #expect(broker.published.allSatisfy { !$0.retain })
        #expect(broker.published(matching: "quad/#").isEmpty)
    }
}
