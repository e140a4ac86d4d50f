import Testing
import FlightLog
import QuadProtocol

struct DecodedLogEntryTests {
    @Test func decodesBinaryMessages() throws {
        let fix = PositionFix(sequence: 3, timestampUs: 9, latitudeDeg: 52, longitudeDeg: 13, source: .gpsd)
        let record = try LogRecord(receiveTimeUs: 10, topic: "quad/drone1/telemetry/position", payload: try fix.encoded())
        let entry = DecodedLogEntry(record: record)
        #expect(entry.content == .message(.positionFix(fix)))
        #expect(entry.typeName == "position_fix")
        #expect(entry.payload == record.payload)
    }

    @Test func keepsTextPayloadsAsText() throws {
        let record = try LogRecord(receiveTimeUs: 10, topic: "quad/drone1/command", payload: Array("takeoff".utf8))
        #expect(DecodedLogEntry(record: record).content == .text("takeoff"))
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
