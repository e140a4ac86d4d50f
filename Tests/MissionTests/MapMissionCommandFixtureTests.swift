import Mission
import Testing

/// The live map's mission buttons (web/map/missionproto.js, `encodeCommand`) must publish the bytes
/// `location-broadcaster mission goto N|abort` publishes: these golden commands for tiergarten.plan's upload, written
/// by the Swift encoder (`QUAD_WRITE_MISSION_FIXTURES=1` rewrites them), are what
/// Tests/WebMapTests/missionproto.test.js compares its own with.
@Suite struct MapMissionCommandFixtureTests {
    static let samples: [String: MissionCommand.Kind] = [
        "map-command-goto": .goto(item: 3),
        "map-command-abort": .abort,
    ]

    @Test(arguments: ["map-command-goto", "map-command-abort"])
    func theMapsMissionCommandsAreGolden(name: String) throws {
        let kind = try #require(Self.samples[name])
        // Addressed as the page addresses it: to the checksum of the plan the board holds (the page's own upload).
        let checksum = try MissionUpload(decoding: MissionFixtures.hex("tiergarten-upload")).plan.checksum
        let command = MissionCommand(senderId: MapPlanDropFixtureTests.pageSender, kind: kind, planChecksum: checksum)
        let encoded = try command.encoded()
        if MissionFixtures.rewriting {
            try MissionFixtures.writeHex(name, encoded, comment: "\(name): tiergarten.plan's command from sender "
                + "\(MapPlanDropFixtureTests.pageSender), mission format 1.0 (missionproto.test.js)")
        }
        let golden = try MissionFixtures.hex(name)
        #expect(golden == encoded)
        #expect(try MissionCommand(decoding: golden) == command)
    }
}
