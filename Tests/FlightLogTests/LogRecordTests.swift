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
        #expect(Array(bytes[24..<28]) == [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)])
    }

    @Test func decodesWhatItEncodes() throws {
        let record = try LogRecord(receiveTimeUs: -5, topic: "quad/drone1/status/navigator", payload: Array("online".utf8),
                                   retain: true, qos: 2)
        #expect(LogRecord.decode(in: record.encoded(), at: 0) == .valid(record, byteCount: record.encodedByteCount))
    }

    @Test func emptyTopicAndPayloadAreAllowed() throws {
        let record = try LogRecord(receiveTimeUs: 0, topic: "", payload: [])
        #expect(LogRecord.decode(in: record.encoded(), at: 0) == .valid(record, byteCount: 23))
    }

    @Test func rejectsInvalidQoS() {
        #expect(throws: LogRecordError.invalidQoS(3)) { try LogRecord(receiveTimeUs: 0, topic: "t", payload: [], qos: 3) }
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
        bytes.replaceSubrange(20..<24, with: [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)])
        #expect(LogRecord.decode(in: bytes, at: 0) == .invalid)
    }
}
