#if canImport(Glibc)
import Glibc
#endif
import FlightControl
import InMemoryMQTT
import Logging
import Mission
import Navigation
import QuadMQTT
import QuadProtocol
import QuadService
import Testing
@testable import DroneControllerKit

/// The board's copy of the mission (issue 37): the plan and the executor's record kept atomically with their CRC
/// and the boot id, reloaded by a restarted controller; a damaged file refused and ignored; an upload from the bus
/// acknowledged on `mission/progress` with its checksum, a mission command in JSON taken.
@Suite struct MissionFileTests {
    let logger = Logger(label: "drone-controller")
    let drone = DroneID(rawValue: "t1")!
    typealias Directory = AirspaceFileTests.Directory
    static let home = GeoPoint(latitudeDeg: 52.5163, longitudeDeg: 13.3777)

    static let upload = MissionUpload(senderId: "ground", plan: MissionPlan(kinds: [
        .takeoff(altitudeM: 3),
        .waypoint(Geodesy.destination(from: home, bearingDeg: 0, distanceM: 20), altitudeM: 3, holdTime: .zero,
                  acceptanceRadiusM: 1),
        .land(nil),
    ]))

    static let record = MissionProgressRecord(
        planChecksum: upload.plan.checksum, state: .running, phase: .approaching, currentItem: 1, stayLeft: .zero,
        elapsed: .seconds(12), reached: [ReachedItem(id: 0, at: .seconds(4), arrivalErrorM: 0.5)])

    /// The plan and the record saved in `directory`, written in boot "boot-a".
    func kept(in directory: Directory) -> MissionFile {
        let file = MissionFile(directory: directory.path, bootId: "boot-a")
        file.save(Self.upload, logger: logger)
        file.save(Self.record, logger: logger)
        return file
    }

    @Test func planAndRecordKeptAndReloadedWithTheBootTheyWereWrittenIn() throws {
        let directory = Directory()
        defer { directory.remove() }
        let file = kept(in: directory)
        #expect(Array(try FileBytes.read(file.planPath).prefix(4)) == Array("QMP1".utf8))
        let loaded = try #require(file.load(logger: logger))
        #expect(loaded.upload == Self.upload)
        #expect(loaded.record == Self.record)
        #expect(loaded.bootId == "boot-a")
    }

    @Test func aDamagedRecordKeepsThePlanButResumesNothing() throws {
        let directory = Directory()
        defer { directory.remove() }
        let file = kept(in: directory)
        var bytes = try FileBytes.read(file.progressPath)
        bytes[bytes.count - 2] ^= 0x01
        try FileBytes.replace(file.progressPath, with: bytes)
        let loaded = try #require(file.load(logger: logger))
        #expect(loaded.upload == Self.upload)
        #expect(loaded.record == nil)
        // A damaged plan: nothing at all.
        var plan = try FileBytes.read(file.planPath)
        plan[9] ^= 0x40
        try FileBytes.replace(file.planPath, with: plan)
        #expect(file.load(logger: logger) == nil)
    }

    func progresses(_ broker: InMemoryBroker) throws -> [MissionProgress] {
        try broker.published(matching: Topics.missionProgress.topic(for: drone)).map {
            try MissionProgress(decoding: $0.payload)
        }
    }

    func controller(keepingIn directory: Directory) -> (InMemoryBroker, Task<Void, any Error>) {
        AirspaceFileTests.controller(drone: drone, logger: logger) {
            ControllerService(runtime: $0, configuration: ControllerConfiguration(),
                              missionFile: MissionFile(directory: directory.path, bootId: "boot-a"))
        }
    }

    @Test func anUploadIsKeptAcknowledgedWithItsChecksumAndRestoredByTheNextRun() async throws {
        let directory = Directory()
        defer { directory.remove() }
        let checksum = Self.upload.plan.checksum
        do {
            let (broker, running) = controller(keepingIn: directory)
            let ground = broker.connect(clientId: "ground")
            try ground.start()
            let fix = PositionFix(sequence: 1, timestampUs: 1, latitudeDeg: Self.home.latitudeDeg,
                                  longitudeDeg: Self.home.longitudeDeg, source: .manual)
            let held = try await eventually(poll: .milliseconds(20)) {
                // Garbage first: counted, never a crash.
                try ground.publish(topic: Topics.missionUpload.topic(for: drone), payload: [0xFF, 0x4D, 1, 9],
                                   qos: 1, retain: false, expiryS: nil)
                try ground.publish(topic: Topics.position.topic(for: drone), payload: fix.encoded(), qos: 0,
                                   retain: false, expiryS: nil)
                try ground.publish(topic: Topics.missionUpload.topic(for: drone), payload: Self.upload.encoded(),
                                   qos: 1, retain: false, expiryS: nil)
                return try progresses(broker).last?.record.planChecksum == checksum
            }
            // A JSON command for another plan is refused (nothing published), one that is not JSON counted.
            let text = #"{"command": "abort", "plan": "0x00000001"}"#
            try ground.publish(topic: Topics.missionCommand.topic(for: drone), payload: Array(text.utf8), qos: 1,
                               retain: false, expiryS: nil)
            running.cancel()
            _ = try? await running.value
            try #require(held, "the controller never acknowledged the upload")
        }
        #expect(MissionFile(directory: directory.path, bootId: "x").load(logger: logger)?.upload == Self.upload)
        let (broker, running) = controller(keepingIn: directory)
        let restored = try await eventually(poll: .milliseconds(20)) {
            try progresses(broker).last?.record.planChecksum == checksum
        }
        running.cancel()
        _ = try? await running.value
        #expect(restored)
    }
}
