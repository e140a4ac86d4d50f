import Checksums
import Testing
@testable import FlightLog

struct LogRecordTests {
    @Test func encodedLayoutMatchesFormat() throws {
        let record = try LogRecord(receiveTimeUs: 0x0102_0304_0506_0708, topic: "q/t", payload: [0xDE, 0xAD],
                                   retain: true, qos: 1)
        let bytes = record.encoded()
        #expect(bytes.count == record.encodedByteCount)
        #expect(Array(bytes[0..<4]) == LogRecord.syncMarker)
        #expect(Array(bytes[4..<8]) == [0, 0, 0, 16])  // 11 fixed + 3 topic + 2 payload
        #expect(Array(bytes[8..<16]) == [1, 2, 3, 4, 5, 6, 7, 8])
        #expect(bytes[16] == 0b011)
        #expect(Array(bytes[17..<19]) == [0, 3])
        #expect(Array(bytes[19..<22]) == Array("q/t".utf8))
        #expect(Array(bytes[22..<24]) == [0xDE, 0xAD])
        let crc = CRC32C.checksum(bytes[0..<24])
        #expect(Array(bytes[24..<28]) == [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF),
            UInt8(crc & 0xFF)])
    }

    @Test func decodesWhatItEncodes() throws {
        let record = try LogRecord(receiveTimeUs: -5, topic: "quad/drone1/status/navigator",
            payload: Array("online".utf8),
                                   retain: true, qos: 2)
        #expect(LogRecord.decode(in: record.encoded(), at: 0) == .valid(record, byteCount: record.encodedByteCount))
    }

    @Test func emptyTopicAndPayloadAreAllowed() throws {
        let record = try LogRecord(receiveTimeUs: 0, topic: "", payload: [])
        #expect(LogRecord.decode(in: record.encoded(), at: 0) == .valid(record, byteCount: 23))
    }

    @Test func rejectsInvalidQoS() {
        #expect(
            throws: LogRecordError.invalidQoS(3)) { try LogRecord(receiveTimeUs: 0, topic: "t", payload: [], qos: 3) }
    }

    @Test func rejectsOverlongTopic() {
        let topic = String(repeating: "a", count: 65_536)
        #expect(throws: LogRecordError.topicTooLong(bytes: 65_536, maxBytes: 65_535)) {
            try LogRecord(receiveTimeUs: 0, topic: topic, payload: [])
        }
    }

    @Test func rejectsRecordWhoseLengthIsBelowTheMinimum() throws {
        var bytes = try LogRecord(receiveTimeUs: 0, topic: "t", payload: []).encoded()
        bytes[7] = 10
        #expect(LogRecord.decode(in: bytes, at: 0) == .invalid)
    }

    @Test func rejectsTopicLengthPastTheBodyEvenWithAGoodCRC() throws {
        var bytes = try LogRecord(receiveTimeUs: 0, topic: "t", payload: []).encoded()
        bytes[18] = 9
        let crc = CRC32C.checksum(bytes[0..<20])
        bytes.replaceSubrange(20..<24, with: [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF),
            UInt8(crc & 0xFF)])
        #expect(LogRecord.decode(in: bytes, at: 0) == .invalid)
    }
}

struct RecoveredRecordTests {
    @Test("the recovered flag is bit 3 of the flags byte and survives a round trip")
    func recoveredFlag() throws {
        let record = try LogRecord(receiveTimeUs: 7, topic: "q/t", payload: [1], retain: false, qos: 1, recovered: true)
        let bytes = record.encoded()
        #expect(bytes[16] == 0b1010)
        guard case .valid(let decoded, _) = LogRecord.decode(in: bytes, at: 0) else {
            Issue.record("not decoded")
            return
        }
        #expect(decoded.recovered)
        #expect(decoded == record)
        #expect(try LogRecord(receiveTimeUs: 7, topic: "q/t", payload: [1], qos: 1).asRecovered(receiveTimeUs: 9)
                == (try LogRecord(receiveTimeUs: 9, topic: "q/t", payload: [1], qos: 1, recovered: true)))
    }

    @Test("recovered records appended at the end are read back where their receive time puts them")
    func recoveredOrder() throws {
        func live(_ t: Int64) throws -> LogRecord { try LogRecord(receiveTimeUs: t, topic: "l", payload: [UInt8(t)]) }
        func recovered(_ t: Int64) throws -> LogRecord {
            try LogRecord(receiveTimeUs: t, topic: "r", payload: [UInt8(t)], recovered: true)
        }
        // The live records keep file order even where the wall clock stepped back (40 after 50).
        let file = [try live(10), try live(20), try live(50), try live(40), try live(60),
                    try recovered(35), try recovered(25), try recovered(70), try recovered(25)]
        let ordered = RecoveredOrder.inReceiveOrder(file)
        #expect(ordered.map(\.receiveTimeUs) == [10, 20, 25, 25, 35, 50, 40, 60, 70])
        #expect(ordered.count == file.count)
        let plain = [try live(3), try live(1)]
        #expect(RecoveredOrder.inReceiveOrder(plain) == plain)
    }
}
