import FlightLog
import InMemoryMQTT
import QuadMQTT
import QuadProtocol
import QuadService
import Testing
@testable import TelemetryLoggerKit

private typealias F = LoggerFixtures

/// `record` for a fleet (issue 17): every drone at once, one complete file per drone, and split by drone between
/// several loggers.
@Suite("telemetry-logger record, fleet")
struct FleetRecordingTests {
    static func drones(_ count: Int) -> [DroneID] {
        (1...count).compactMap { DroneID(rawValue: "drone\($0)") }
    }

    /// Each drone's telemetry (sequence 1…`perDrone`) and a target, interleaved across drones as a fleet publishes.
    static func traffic(_ drones: [DroneID], perDrone: Int = 40) -> [MQTTMessage] {
        var messages: [MQTTMessage] = []
        for sequence in 1...perDrone {
            for drone in drones {
                messages.append(F.message(Topics.droneState.topic(for: drone),
                                          F.droneState(UInt32(sequence), timestampUs: Int64(sequence) * 100_000),
                                          qos: 0))
                if sequence % 10 == 0 { messages.append(F.message(Topics.target.topic(for: drone), [UInt8(sequence)])) }
            }
        }
        return messages
    }

    /// A drone's records in a directory, without the loggers' own presence.
    static func recorded(_ drone: DroneID, in directory: TemporaryDirectory) throws -> [MQTTMessage] {
        try directory.records(of: drone.rawValue).filter { !$0.topic.contains("/status/telemetry-logger") }
            .map { MQTTMessage(topic: $0.topic, payload: $0.payload, qos: Int32($0.qos), retain: $0.retain) }
    }

    @Test("every drone at once: one file per drone, each with all of its drone's messages in order and no other's")
    func everyDroneOneFileEach() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let broker = InMemoryBroker()
        let stop = StopSwitch()
        let runtime = F.runtime(broker)
        let running = Task { try await F.recording(directory, drones: .all).run(runtime, until: [stop]) }
        try await F.waitUntilOnline(broker)
        let fleet = Self.drones(2)
        let traffic = Self.traffic(fleet)
        for message in traffic { broker.inject(message) }
        stop.stop()
        try await running.value

        #expect(directory.logs.count == 2)
        for drone in fleet {
            #expect(directory.logs.filter { $0.hasPrefix("\(drone.rawValue)-") }.count == 1)
            let expected = traffic.filter { DroneID(topic: $0.topic) == drone }
            #expect(try Self.recorded(drone, in: directory) == expected)
        }
    }

    @Test("--drones a,c: only the listed drones are recorded, each complete")
    func listedDronesOnly() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let broker = InMemoryBroker()
        let stop = StopSwitch()
        let fleet = Self.drones(3)
        let listed = [fleet[0], fleet[2]]
        let runtime = F.runtime(broker)
        let running = Task { try await F.recording(directory, drones: .only(listed)).run(runtime, until: [stop]) }
        try await F.waitUntilOnline(broker)
        let traffic = Self.traffic(fleet, perDrone: 20)
        for message in traffic { broker.inject(message) }
        stop.stop()
        try await running.value

        #expect(try Self.recorded(fleet[1], in: directory).isEmpty)
        #expect(!directory.logs.contains { $0.hasPrefix("drone2-") })
        for drone in listed {
            #expect(try Self.recorded(drone, in: directory) == traffic.filter { DroneID(topic: $0.topic) == drone })
        }
    }

    @Test("--shard 0/2 and 1/2: each drone is recorded by exactly one of the two loggers, completely")
    func twoWayShardSplit() async throws {
        let directories = [TemporaryDirectory(), TemporaryDirectory()]
        defer { directories.forEach { $0.remove() } }
        let broker = InMemoryBroker()
        let fleet = Self.drones(6)
        let stops = [StopSwitch(), StopSwitch()]
        var running: [Task<Void, any Error>] = []
        for index in 0..<2 {
            let presence = "telemetry-logger-\(index)"
            let runtime = F.runtime(broker, presence: presence)
            let recording = F.recording(directories[index], drones: .shard(index: index, count: 2))
            running.append(Task { try await recording.run(runtime, until: [stops[index]]) })
            try await F.waitUntilOnline(broker, presence: presence)
        }
        let traffic = Self.traffic(fleet)
        for message in traffic { broker.inject(message) }
        stops.forEach { $0.stop() }
        for task in running { try await task.value }

        var perLogger = [0, 0]
        for drone in fleet {
            let holders = try directories.indices.filter { try !Self.recorded(drone, in: directories[$0]).isEmpty }
            #expect(holders == [DroneSelection.shard(of: drone, count: 2)], "\(drone)")
            for holder in holders {
                perLogger[holder] += 1
                #expect(try Self.recorded(drone, in: directories[holder])
                            == traffic.filter { DroneID(topic: $0.topic) == drone })
            }
        }
        // The split really splits (FNV-1a puts drone1, 3, 5 in shard 0 and drone2, 4, 6 in shard 1).
        #expect(perLogger == [3, 3])
    }

    @Test("the shard of a drone id is FNV-1a 32 of its bytes mod N, the same in every process")
    func shardHash() throws {
        let ids = Self.drones(6)
        #expect(ids.map { DroneSelection.shard(of: $0, count: 2) } == [0, 1, 0, 1, 0, 1])
        #expect(ids.map { DroneSelection.shard(of: $0, count: 3) } == [0, 0, 1, 1, 2, 2])
        #expect(DroneSelection.shard(index: 1, count: 2).includes(ids[1]))
        #expect(!DroneSelection.shard(index: 1, count: 2).includes(ids[0]))
        // A topic without a drone id goes to shard 0, so exactly one logger keeps it.
        #expect(DroneSelection.shard(index: 0, count: 2).includes(nil))
    }
}
