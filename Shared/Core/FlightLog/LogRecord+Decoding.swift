import Checksums
extension LogRecord {
    /// What lies at one offset of a buffer.
    enum DecodeOutcome: Equatable {
        /// A complete record with a good CRC, `byteCount` bytes long.
        case valid(LogRecord, byteCount: Int)
        /// Looks like the start of a record but the buffer ends before it does.
        case incomplete
        /// Not a record: no sync marker, impossible length, CRC mismatch or bad fields.
        case invalid
    }

    /// Decodes the record starting at `offset` without trusting anything in it until the CRC matches.
    static func decode(in bytes: [UInt8], at offset: Int) -> DecodeOutcome {
        let available = bytes.count - offset
        guard available > 0 else { return .incomplete }
        // A buffer that ends inside the sync marker is only incomplete if what is there matches the marker.
        let markerBytesPresent = min(available, syncMarker.count)
        guard bytes.hasBytes(Array(syncMarker[0..<markerBytesPresent]), at: offset) else { return .invalid }
        guard let bodyLength = bytes.bigEndianValue(UInt32.self, at: offset + 4) else { return .incomplete }
        let body = Int(bodyLength)
        guard body >= fixedBodyBytes, body <= maxBodyBytes else { return .invalid }
        let total = body + framingBytes
        guard available >= total else { return .incomplete }
        let crcOffset = offset + 8 + body
        guard let storedCRC = bytes.bigEndianValue(UInt32.self, at: crcOffset),
              storedCRC == CRC32C.checksum(bytes[offset..<crcOffset])
        else { return .invalid }
        guard let record = parseBody(bytes, bodyStart: offset + 8, bodyEnd: crcOffset) else { return .invalid }
        return .valid(record, byteCount: total)
    }

    private static func parseBody(_ bytes: [UInt8], bodyStart: Int, bodyEnd: Int) -> LogRecord? {
        guard let receiveTimeUs = bytes.bigEndianValue(Int64.self, at: bodyStart),
              let topicLength = bytes.bigEndianValue(UInt16.self, at: bodyStart + 9)
        else { return nil }
        let flags = bytes[bodyStart + 8]
        let topicStart = bodyStart + fixedBodyBytes
        let topicEnd = topicStart + Int(topicLength)
        guard topicEnd <= bodyEnd,
              let topic = String(validating: bytes[topicStart..<topicEnd], as: UTF8.self)
        else { return nil }
        return try? LogRecord(receiveTimeUs: receiveTimeUs, topic: topic, payload: Array(bytes[topicEnd..<bodyEnd]),
                              retain: flags & 1 != 0, qos: (flags >> 1) & 0b11, recovered: flags & 0b1000 != 0)
    }
}
