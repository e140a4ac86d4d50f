import Testing
import FlightLog
import QuadProtocol

struct DecodedLogEntryTests {
    @Test func decodesBinaryMessages() throws {
        let fix = PositionFix(sequence: 3, timestampUs: 9, latitudeDeg: 52, longitudeDeg: 13, source: .gpsd)
        let record = try LogRecord(receiveTimeUs: 10, topic: "quad/drone1/telemetry/position",
            payload: try fix.encoded())
        let entry = DecodedLogEntry(record: record)
        #expect(entry.content == .message(.positionFix(fix)))
        #expect(entry.typeName == "position_fix")
        #expect(entry.payload == record.payload)
    }

    @Test func keepsOtherTextPayloadsAsText() throws {
        let record = try LogRecord(receiveTimeUs: 10, topic: "quad/drone1/status/navigator",
            payload: Array("online".utf8))
        #expect(DecodedLogEntry(record: record).content == .text("online"))
    }

    @Test func decodesJSONTargetsAndCommandWordsOnTheirTopics() throws {
        let json = try LogRecord(receiveTimeUs: 10, topic: "quad/drone1/target",
                                 payload: Array(#"{"lat": 52.5, "lon": 13.4}"#.utf8))
        guard case .message(.target(let target)) = DecodedLogEntry(record: json).content else {
            Issue.record("expected a target")
            return
        }
        #expect(target.latitudeDeg == 52.5 && target.timestampUs == 10)
        let word = try LogRecord(receiveTimeUs: 10, topic: "quad/drone1/command", payload: Array("land".utf8))
        guard case .message(.command(let command)) = DecodedLogEntry(record: word).content else {
            Issue.record("expected a command")
            return
        }
        #expect(command.kind == .land)
    }

    @Test func reportsUndecodablePayloads() throws {
        let record = try LogRecord(receiveTimeUs: 10, topic: "quad/drone1/telemetry/drone", payload: [0xFF, 0x01])
        let entry = DecodedLogEntry(record: record)
        guard case .undecodable = entry.content else {
            Issue.record("expected undecodable, got \(entry.content)")
            return
        }
        #expect(entry.typeName == "undecodable")
    }
}
