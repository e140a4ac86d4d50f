import Mission
import Navigation
import Testing

@Suite struct QGCPlanParserTests {
    @Test func aRealLookingPlanGivesItsItemsSpeedAndHome() throws {
        let plan = try QGCPlanParser.plan(MissionFixtures.bytes("tiergarten.plan"))
        let p = { (lat: Double, lon: Double) in GeoPoint(latitudeDeg: lat, longitudeDeg: lon) }
        #expect(plan.items.map(\.kind) == [
            .takeoff(altitudeM: 10),
            .waypoint(p(52.5150, 13.3510), altitudeM: 12, holdTime: .seconds(5), acceptanceRadiusM: 2),
            .changeSpeed(speedMps: 2.5),
            .waypoint(p(52.5155, 13.3525), altitudeM: 15, holdTime: .zero, acceptanceRadiusM: 1),
            .loiterTime(p(52.5160, 13.3515), altitudeM: 15, time: .seconds(30)),
            .land(p(52.5146, 13.3502)),
        ])
        #expect(plan.items.map(\.id) == Array(0..<6))
        // A multicopter flies QGroundControl's hoverSpeed; cruiseSpeed is the fixed-wing one.
        #expect(plan.cruiseSpeedMps == 4)
        #expect(plan.plannedHome == p(52.5145, 13.3501))
        try plan.validate(limits: MissionLimits(ceilingM: 50, fenceRadiusM: 300, home: p(52.5145, 13.3501)))
    }

    @Test func anUnknownCommandIsRefusedWithItsIndexAndNumber() throws {
        #expect(throws: MissionPlanError.unknownCommand(item: 2, command: 183)) {
            try QGCPlanParser.plan(MissionFixtures.bytes("unknown-command.plan"))
        }
        #expect(MissionPlanError.unknownCommand(item: 2, command: 183).description
            == "item 2: MAVLink command 183 is not supported")
    }

    @Test func aSurveyIsRefusedWithItsIndex() throws {
        #expect(throws: MissionPlanError.complexItem(item: 1, complexItemType: "survey")) {
            try QGCPlanParser.plan(MissionFixtures.bytes("survey.plan"))
        }
    }

    static func plan(items: String) -> [UInt8] {
        Array(#"{"fileType": "Plan", "mission": {"items": [\#(items)]}, "version": 1}"#.utf8)
    }

    @Test(arguments: [
        (#"{"type": "SimpleItem", "command": 16, "frame": 0, "params": [0, 0, 0, 0, 52.5, 13.3, 10]}"#,
         MissionPlanError.unsupportedFrame(item: 0, frame: 0)),
        (#"{"type": "SimpleItem", "command": 16, "frame": 10, "params": [0, 0, 0, 0, 52.5, 13.3, 10]}"#,
         MissionPlanError.unsupportedFrame(item: 0, frame: 10)),
        (#"{"type": "SimpleItem", "command": 16, "frame": 3, "params": [0, 0, 0, 0, null, 13.3, 10]}"#,
         MissionPlanError.malformed(at: "mission.items[0].params[4]", reason: "expected a finite number")),
        (#"{"type": "SimpleItem", "command": 16, "frame": 3, "params": [0, 0, 0, 52.5, 13.3, 10]}"#,
         MissionPlanError.malformed(at: "mission.items[0].params", reason: "expected an array of 7 numbers or nulls")),
        (#"{"type": "Waypoint", "command": 16}"#,
         MissionPlanError.malformed(at: "mission.items[0].type", reason: "expected \"SimpleItem\" or \"ComplexItem\"")),
    ] as [(String, MissionPlanError)])
    func brokenItemsAreRefusedSayingWhere(item: String, error: MissionPlanError) {
        #expect(throws: error) { try QGCPlanParser.plan(Self.plan(items: item)) }
    }

    @Test func landInPlaceAndReturnNeedNoPosition() throws {
        let items = #"{"type": "SimpleItem", "command": 21, "frame": 3, "params": [0, 0, 0, null, 0, 0, 0]},"#
            + #"{"type": "SimpleItem", "command": 20, "frame": 2, "params": [0, 0, 0, 0, 0, 0, 0]}"#
        let plan = try QGCPlanParser.plan(Self.plan(items: items))
        #expect(plan.items.map(\.kind) == [.land(nil), .returnToLaunch])
        #expect(plan.cruiseSpeedMps == nil && plan.plannedHome == nil)
    }

    @Test func notAPlanFile() {
        let notPlan = MissionPlanError.malformed(at: "fileType", reason: "expected \"Plan\" (is this a .plan file?)")
        #expect(throws: notPlan) {
            try QGCPlanParser.plan(Array(#"{"type": "FeatureCollection"}"#.utf8))
        }
        #expect(throws: (any Error).self) { try QGCPlanParser.plan(Array("not json".utf8)) }
    }
}

/// The live map reads a dropped `.plan` in JavaScript (web/map/planfile.js) and must publish the bytes
/// `location-broadcaster mission upload` publishes: these golden uploads, written by the Swift parser and encoder
/// (`QUAD_WRITE_MISSION_FIXTURES=1` rewrites them), are what Tests/WebMapTests/planfile.test.js compares its own with.
@Suite struct MapPlanDropFixtureTests {
    /// The page's sender id in the fixtures (the page's are `map-` and 8 hex digits).
    static let pageSender = "map-0123abcd"

    @Test(arguments: ["tiergarten", "map-drop"])
    func theUploadOfAPlanFileIsGolden(name: String) throws {
        let plan = try QGCPlanParser.plan(MissionFixtures.bytes(name + ".plan"))
        try plan.validateStructure()
        let encoded = try MissionUpload(senderId: Self.pageSender, plan: plan).encoded()
        if MissionFixtures.rewriting {
            try MissionFixtures.writeHex(name + "-upload", encoded,
                comment: "\(name).plan uploaded by sender \(Self.pageSender), mission format 1.0 (planfile.test.js)")
        }
        #expect(try MissionFixtures.hex(name + "-upload") == encoded)
    }
}
