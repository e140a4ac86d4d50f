import Checksums
import Mission
import QuadProtocol
import Testing

@Suite struct MissionWireTests {
    typealias F = MissionFixtures

    static let upload = MissionUpload(senderId: "ground-laptop", plan: F.plan)
    static let command = MissionCommand(senderId: "ground-laptop", kind: .goto(item: 3), planChecksum: 0x1234_5678)
    static let progress = MissionProgress(
        record: MissionProgressRecord(planChecksum: 0x1234_5678, state: .running, phase: .staying, currentItem: 3,
                                      stayLeft: .milliseconds(12_500), elapsed: .seconds(95), reached: [
                                        ReachedItem(id: 0, at: .seconds(8), arrivalErrorM: 0),
                                        ReachedItem(id: 1, at: .milliseconds(31_250), arrivalErrorM: 0.75),
                                        ReachedItem(id: 2, at: .milliseconds(36_250), arrivalErrorM: 0),
                                        ReachedItem(id: 3, at: .milliseconds(77_500), arrivalErrorM: 1.5),
                                      ]),
        remainingDistanceM: 92.5, remainingTime: .seconds(48))

    @Test func ieeeCRC32KnownAnswers() {
        #expect(CRC32.ieee.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(CRC32.ieee.checksum([UInt8]()) == 0)
        #expect(CRC32.castagnoli.checksum(Array("123456789".utf8)) == 0xE306_9283)
    }

    @Test func thePlansChecksumIsTheCRCOfItsCanonicalBytes() {
        let bytes = F.plan.canonicalBytes
        #expect(bytes.count == MissionPlan.canonicalHeadByteCount + 6 * MissionPlan.itemByteCount)
        #expect(F.plan.checksum == CRC32.ieee.checksum(bytes))
        var other = F.plan
        other.items[1].kind = .waypoint(F.point(northM: 40, eastM: 0), altitudeM: 12, holdTime: .seconds(6),
                                        acceptanceRadiusM: 2)
        #expect(other.checksum != F.plan.checksum)
    }

    @Test func payloadsRoundTrip() throws {
        let upload = try MissionUpload(decoding: Self.upload.encoded())
        #expect(upload.senderId == "ground-laptop" && upload.plan.checksum == F.plan.checksum)
        #expect(upload.plan.items.map(\.id) == F.plan.items.map(\.id))
        // The sample's numbers are all exact in f32, so the plan comes back equal.
        #expect(upload.plan == F.plan)
        for kind in [MissionCommand.Kind.start, .pause, .resume, .abort, .goto(item: 0), .goto(item: 99)] {
            let command = MissionCommand(senderId: "a", kind: kind, planChecksum: 7)
            #expect(try MissionCommand(decoding: command.encoded()) == command)
        }
        #expect(try MissionProgress(decoding: Self.progress.encoded()) == Self.progress)
    }

    @Test(arguments: ["mission-upload", "mission-command", "mission-progress"])
    func goldenFixtures(name: String) throws {
        let encoded: [UInt8] = switch name {
        case "mission-upload": try Self.upload.encoded()
        case "mission-command": try Self.command.encoded()
        default: try Self.progress.encoded()
        }
        if F.rewriting { try F.writeHex(name, encoded, comment: "\(name), mission format 1.0 (PROTOCOL.md)") }
        let golden = try F.hex(name)
        #expect(golden == encoded)
        switch name {
        case "mission-upload": #expect(try MissionUpload(decoding: golden).plan.checksum == F.plan.checksum)
        case "mission-command": #expect(try MissionCommand(decoding: golden) == Self.command)
        default: #expect(try MissionProgress(decoding: golden) == Self.progress)
        }
    }

    @Test func aDamagedUploadIsRefused() throws {
        var bytes = try Self.upload.encoded()
        let itemStart = 5 + 1 + 13 + MissionPlan.canonicalHeadByteCount
        bytes[itemStart + 20] ^= 0x01
        #expect {
            try MissionUpload(decoding: bytes)
        } throws: { error in
            if case .checksumMismatch = error as? MissionWireError { true } else { false }
        }
        var unused = try Self.upload.encoded()
        // Item 0 (takeoff) has no point: its latitude slot must be zero.
        unused[itemStart + 4] = 1
        #expect(throws: MissionWireError.notCanonical(item: 0)) { try MissionUpload(decoding: unused) }
        let tooLong = try Self.upload.encoded() + [0]
        #expect(throws: MissionWireError.trailingBytes(1)) { try MissionUpload(decoding: tooLong) }
        var newerMinor = tooLong
        newerMinor[4] = 1
        #expect(try MissionUpload(decoding: newerMinor).plan.checksum == F.plan.checksum)
    }

    @Test func framingAndFieldsAreChecked() throws {
        let command = try Self.command.encoded()
        #expect(Array(command[0..<5]) == [0xFF, 0x4D, 2, 1, 0])
        #expect(throws: MissionWireError.wrongKind(expected: 1, got: 2)) { try MissionUpload(decoding: command) }
        #expect(throws: MissionWireError.truncated(neededBytes: 5, gotBytes: 3)) {
            try MissionCommand(decoding: [0xFF, 0x4D, 2])
        }
        #expect(throws: MissionWireError.badMagic(got: [0xFF, 0x51])) {
            try MissionCommand(decoding: [0xFF, 0x51, 1, 1, 4])
        }
        var major = command
        major[3] = 2
        #expect(throws: MissionWireError.unsupportedMajor(got: 2)) { try MissionCommand(decoding: major) }
        var kind = command
        kind[5 + 1 + 13] = 9
        #expect(throws: MissionWireError.unknownEnumValue(field: "kind", got: 9)) {
            try MissionCommand(decoding: kind)
        }
        var pauseWithItem = command
        pauseWithItem[5 + 1 + 13] = 2
        #expect(throws: MissionWireError.outOfRange(field: "item", got: 3, expected: "0 (not a goto)")) {
            try MissionCommand(decoding: pauseWithItem)
        }
        var twice = Self.progress
        twice.record.reached.append(ReachedItem(id: 1, at: .seconds(99), arrivalErrorM: 0))
        #expect(throws: MissionWireError.outOfRange(field: "reached[4].id", got: 1, expected: "a new id 0…99")) {
            try twice.encoded()
        }
        let empty = MissionUpload(senderId: "a", plan: MissionPlan(items: []))
        #expect(throws: MissionWireError.plan(.empty)) { try empty.encoded() }
        let noSender = MissionCommand(senderId: "", kind: .start, planChecksum: 1)
        #expect(throws: MissionWireError.stringLength(field: "senderId", gotBytes: 0)) { try noSender.encoded() }
    }
}

@Suite struct MissionTopicTests {
    /// The choices docs/missions.md and PROTOCOL.md explain: the plan loaded and the progress stay on the broker,
    /// commands never do.
    @Test func missionTopicsAreRowsOfTheOneTable() {
        #expect(Topics.missionUpload.qos == .atLeastOnce && Topics.missionUpload.retain)
        #expect(Topics.missionCommand.qos == .atLeastOnce && !Topics.missionCommand.retain)
        #expect(Topics.missionProgress.qos == .atLeastOnce && Topics.missionProgress.retain)
        #expect(Topics.missionProgress.topic(for: .default).hasSuffix("/mission/progress"))
    }
}
