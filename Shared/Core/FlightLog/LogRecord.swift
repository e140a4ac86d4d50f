import Checksums
import Clocks

/// One received MQTT message, stored losslessly (see FORMAT.md):
///
///     offset  size  field
///     0       4     sync marker 0xA5 'Q' 'R' 0x5A
///     4       4     body length N, UInt32 BE: bytes from offset 8 up to (not including) the CRC
///     8       8     receive time, µs since the Unix epoch (logger clock), Int64 BE
/// 16      1     flags: bit 0 retain, bits 1–2 QoS (0–2), bit 3 recovered, bits 4–7 reserved (written 0, ignored)
///     17      2     topic length T, UInt16 BE
///     19      T     topic, UTF-8
///     19+T    P     payload, the raw MQTT payload byte for byte (P = N − 11 − T)
///     8+N     4     CRC-32C over bytes [0, 8+N) of the record, UInt32 BE
public struct LogRecord: Sendable, Equatable {
    public static let syncMarker: [UInt8] = [0xA5, 0x51, 0x52, 0x5A]
    /// MQTT's own limits: topics are at most 65535 bytes, payloads at most 268 435 455 bytes.
    public static let maxTopicBytes = Int(UInt16.max)
    public static let maxPayloadBytes = 268_435_455
    /// Sync marker + body length + CRC.
    static let framingBytes = 12
    /// Receive time + flags + topic length.
    static let fixedBodyBytes = 11
    static let maxBodyBytes = fixedBodyBytes + maxTopicBytes + maxPayloadBytes

    /// The logger's wall clock at receipt (file format field).
    public let receiveTimeUs: Int64
    public var receiveTime: WallInstant { WallInstant(us: receiveTimeUs) }
    public let topic: String
    public let payload: [UInt8]
    public let retain: Bool
    /// MQTT QoS the message was received with, 0–2.
    public let qos: UInt8
    /// Not received live: fetched later from another logger's log (`telemetry-logger sync`, the board's log after
    /// a radio outage). `receiveTimeUs` is then that logger's receive time mapped onto this logger's clock, and
    /// readers place the record by it (`RecoveredOrder`), wherever it sits in the file.
    public let recovered: Bool

    public init(receiveTimeUs: Int64, topic: String, payload: [UInt8], retain: Bool = false,
                qos: UInt8 = 0, recovered: Bool = false) throws(LogRecordError) {
        guard topic.utf8.count <= Self.maxTopicBytes else {
            throw .topicTooLong(bytes: topic.utf8.count, maxBytes: Self.maxTopicBytes)
        }
        guard payload.count <= Self.maxPayloadBytes else {
            throw .payloadTooLong(bytes: payload.count, maxBytes: Self.maxPayloadBytes)
        }
        guard qos <= 2 else { throw .invalidQoS(qos) }
        self.receiveTimeUs = receiveTimeUs
        self.topic = topic
        self.payload = payload
        self.retain = retain
        self.qos = qos
        self.recovered = recovered
    }

    /// The same message marked as recovered, with a receive time on this logger's clock.
    public func asRecovered(receiveTimeUs: Int64) -> LogRecord {
        // The fields were validated when `self` was made.
        (try? LogRecord(receiveTimeUs: receiveTimeUs, topic: topic, payload: payload, retain: retain, qos: qos,
                        recovered: true)) ?? self
    }

    /// Number of bytes `encoded()` produces; what a rotation policy adds to the file size.
    public var encodedByteCount: Int { Self.framingBytes + Self.fixedBodyBytes + topic.utf8.count + payload.count }

    public func encoded() -> [UInt8] {
        var bytes = Self.syncMarker
        bytes.reserveCapacity(encodedByteCount)
        let bodyLength = Self.fixedBodyBytes + topic.utf8.count + payload.count
        bytes.appendBigEndian(UInt32(truncatingIfNeeded: bodyLength))
        bytes.appendBigEndian(receiveTimeUs)
        bytes.append((retain ? 1 : 0) | (qos << 1) | (recovered ? 1 << 3 : 0))
        bytes.appendBigEndian(UInt16(truncatingIfNeeded: topic.utf8.count))
        bytes.append(contentsOf: topic.utf8)
        bytes.append(contentsOf: payload)
        bytes.appendBigEndian(CRC32C.checksum(bytes))
        return bytes
    }
}

/// Why a record cannot be written.
public enum LogRecordError: Error, Equatable, Sendable {
    case topicTooLong(bytes: Int, maxBytes: Int)
    case payloadTooLong(bytes: Int, maxBytes: Int)
    case invalidQoS(UInt8)
}
