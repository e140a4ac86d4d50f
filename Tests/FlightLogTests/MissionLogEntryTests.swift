import Checksums
import FlightLog
import Mission
import Navigation
import Testing

/// The mission payloads in the flight log (issue 37): decoded by their own codec and shown in the same JSON view as
/// the bus's messages, in every export; a broken one kept whole with the mission codec's reason.
struct MissionLogEntryTests {
    static let plan = MissionPlan(kinds: [
        .takeoff(altitudeM: 3),
        .waypoint(GeoPoint(latitudeDeg: -33.86, longitudeDeg: 151.21), altitudeM: 3, holdTime: .seconds(2),
                  acceptanceRadiusM: 2),
        .land(nil),
    ])

    static func entry(_ topic: String, _ payload: [UInt8]) throws -> DecodedLogEntry {
        DecodedLogEntry(record: try LogRecord(receiveTimeUs: 10, topic: "quad/drone1/\(topic)", payload: payload))
    }

    @Test func eachMissionPayloadIsDecodedAndShownAsJSON() throws {
        let checksum = CRC32.text(Self.plan.checksum)
        let upload = try Self.entry("mission/upload", MissionUpload(senderId: "laptop", plan: Self.plan).encoded())
        #expect(upload.typeName == "mission_upload")
        #expect(JSONLExporter.export([upload]) == """
            {"receive_time_us":10,"topic":"quad/drone1/mission/upload","retain":false,"qos":0,\
            "type":"mission_upload","sender_id":"laptop","plan_checksum":"\(checksum)","items":3,\
            "cruise_speed_mps":null}

            """)
        let command = try Self.entry("mission/command", MissionCommand(senderId: "laptop", kind: .goto(item: 2),
                                                                       planChecksum: Self.plan.checksum).encoded())
        #expect(JSONLExporter.export([command]).contains(#""kind":"goto","item":2}"#))
        let record = MissionProgressRecord(planChecksum: Self.plan.checksum, state: .running, phase: .staying,
                                           currentItem: 1, stayLeft: .milliseconds(1500), elapsed: .seconds(20),
                                           reached: [ReachedItem(id: 0, at: .seconds(5), arrivalErrorM: 0.5)])
        let progress = try Self.entry("mission/progress", MissionProgress(record: record, remainingDistanceM: 12.5,
                                                                          remainingTime: .seconds(9)).encoded())
        #expect(JSONLExporter.export([progress]).contains("""
            "type":"mission_progress","plan_checksum":"\(checksum)","state":"running","phase":"staying",\
            "current_item":1,"stay_left_ms":1500,"elapsed_ms":20000,"remaining_distance_m":12.5,\
            "remaining_time_ms":9000,"reached":1,"last_reached_item":0,"last_reached_error_m":0.5}
            """))
        let refusal = MissionStatus.Refusal(planChecksum: 7, item: 1, reason: "item 1: outside the fence")
        let status = try Self.entry("mission/status", MissionStatus(sequence: 4, heldChecksum: nil, refusal: refusal)
            .encoded())
        #expect(JSONLExporter.export([status]).contains("""
            "type":"mission_status","sequence":4,"held_checksum":null,"refused_checksum":"0x00000007",\
            "refused_item":1,"refusal":"item 1: outside the fence"}
            """))
        // The CSV names the type and the fields worth a glance.
        let row = CSVExporter.export([progress])
        #expect(row.contains("mission_progress") && row.contains("state=running current_item=1 reached=1"))
    }

    @Test func aBrokenMissionPayloadIsKeptWithTheMissionCodecsReason() throws {
        var bytes = try MissionCommand(senderId: "laptop", kind: .start, planChecksum: 1).encoded()
        bytes.removeLast()
        let entry = try Self.entry("mission/command", bytes)
        guard case .undecodable(let reason) = entry.content else {
            Issue.record("expected undecodable, got \(entry.content)")
            return
        }
        #expect(reason.contains("truncated"))
        // Nothing lost: the JSON line carries the bytes.
        #expect(JSONLExporter.export([entry]).contains("\"payload_base64\""))
    }
}
