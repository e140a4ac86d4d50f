import FlightLog
import Foundation
import ProcessSupport
import QuadMQTT
import QuadProtocol
import Testing

/// Issue 17: one logger for the whole fleet, and a fleet split by drone between loggers (brokers without
/// shared subscriptions).
extension TelemetryLoggerTests {
    /// The generator's drones; FNV-1a 32 mod 2 puts fleet-b in shard 0 and fleet-a, fleet-c in shard 1.
    static let fleetIds = ["fleet-a", "fleet-b", "fleet-c"]

    /// `perDrone` DroneStates for each drone, interleaved as a fleet publishes them (QoS 1: nothing lost on the way).
    func publishFleet(_ ids: [String], perDrone: Int) async throws -> [String: [[UInt8]]] {
        let publisher = try await connectedClient("fleet-generator")
        defer { publisher.shutdown() }
        var published: [String: [[UInt8]]] = [:]
        for sequence in 1...perDrone {
            for id in ids {
                let drone = DroneID(rawValue: id) ?? .default
                let state = DroneState(sequence: UInt32(sequence), timestampUs: 1_700_000_000_000_000 + Int64(sequence),
                                       navdataSequence: UInt32(sequence), stateBits: 0, controlState: .landed,
                                       batteryPercent: 80, altitudeM: 0, pitchDeg: 0, rollDeg: 0, yawDeg: 0,
                                       velocityXMps: 0, velocityYMps: 0, velocityZMps: 0)
                let payload = try state.encoded()
                try await publish(publisher, topic: Topics.droneState.topic(for: drone), payload: payload, qos: 1)
                published[id, default: []].append(payload)
            }
        }
        // Every message acknowledged by the broker before the generator disconnects.
        try await eventually(timeout: .seconds(30), "the broker acknowledged the fleet's messages") {
            publisher.pendingAcknowledgements == 0
        }
        return published
    }

    /// The records of drone `id` in `dir`, and the number of files they are in.
    func fleetRecords(_ id: String, in dir: URL) throws -> (payloads: [[UInt8]], files: Int) {
        guard FileManager.default.fileExists(atPath: dir.path) else { return ([], 0) }
        let files = try logFiles(in: dir).filter { $0.lastPathComponent.hasPrefix("\(id)-") }
        let topic = "quad/\(id)/"
        // A file just created has no header yet (it is written at the first flush): nothing in it so far.
        let records = files.sorted { $0.lastPathComponent < $1.lastPathComponent }.flatMap { file in
            (try? LogReader(bytes: Array(Data(contentsOf: file))))?.readAll()
                .records.filter { $0.topic.hasPrefix(topic) }
                ?? []
        }
        return (records.map(\.payload), files.count)
    }

    @Test("record --all: three drones from one generator → three logs, one per drone, each complete and in order")
    func fleetAll() async throws {
        let recorder = try await startRecorder(drone: "fleetlogger", ["--all"])
        let published = try await publishFleet(Self.fleetIds, perDrone: 300)
        try await eventually(timeout: .seconds(60), "900 records on disk") {
            try Self.fleetIds.reduce(0) { $0 + (try fleetRecords($1, in: logDir).payloads.count) } >= 900
        }
        #expect(recorder.stop(signal: SIGTERM, timeout: .seconds(20)) == 0, "\(recorder.output())")
        for id in Self.fleetIds {
            let (payloads, files) = try fleetRecords(id, in: logDir)
            #expect(files == 1, "\(id)")
            #expect(payloads == published[id], "\(id): \(payloads.count) of \(published[id]?.count ?? 0)")
        }
        #expect(recorder.output().contains("dropped=0 lost=0"), "\(recorder.output())")
    }

    @Test("record --shard 0/2 and 1/2: each drone is recorded by exactly one logger, completely")
    func fleetShardSplit() async throws {
        let dirs = [logDir.appendingPathComponent("shard0"), logDir.appendingPathComponent("shard1")]
        var recorders: [ChildProcess] = []
        // record creates one directory level, not its parents.
        for dir in dirs { try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true) }
        for index in 0..<2 {
            recorders.append(try await startRecorder(drone: "shardlog\(index)", ["--shard", "\(index)/2"],
                                                     dir: dirs[index], name: "telemetry-logger-\(index)"))
        }
        let published = try await publishFleet(Self.fleetIds, perDrone: 200)
        try await eventually(timeout: .seconds(60), "600 records on disk") {
            var total = 0
            for id in Self.fleetIds { for dir in dirs { total += try fleetRecords(id, in: dir).payloads.count } }
            return total >= 600
        }
        for recorder in recorders {
            #expect(recorder.stop(signal: SIGTERM, timeout: .seconds(20)) == 0, "\(recorder.output())")
        }
        let expectedShard = ["fleet-a": 1, "fleet-b": 0, "fleet-c": 1]
        for id in Self.fleetIds {
            let holders = try dirs.indices.filter { try !fleetRecords(id, in: dirs[$0]).payloads.isEmpty }
            #expect(holders == [expectedShard[id]], "\(id) in \(holders)")
            for holder in holders {
                let (payloads, files) = try fleetRecords(id, in: dirs[holder])
                #expect(files == 1 && payloads == published[id], "\(id): \(payloads.count) records in \(files) files")
            }
        }
        #expect(recorders[0].output().contains("shard 0/2"), "\(recorders[0].output())")
    }
}
