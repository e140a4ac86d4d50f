import Clocks
import FlightLog
import LogSync
import QuadProtocol

/// Telemetry records as a board publisher sends them: DroneState on `quad/<drone>/telemetry/drone`, sequence n stamped
/// at `t0 + n × 100 ms` on the sender's clock, received `receiveDelayUs` later on the logger's.
enum SyncFixtures {
    static let drone = DroneID(rawValue: "drone1") ?? .default
    static let topic = Topics.droneState.topic(for: drone)
    static let positionTopic = Topics.position.topic(for: drone)
    static let t0: Int64 = 1_700_000_000_000_000

    static func senderTimeUs(_ sequence: UInt32) -> Int64 { t0 + Int64(sequence) * 100_000 }

    static func state(_ sequence: UInt32, receiveDelayUs: Int64 = 2_000, topic: String = topic,
                      timestampUs: Int64? = nil, retain: Bool = false) -> LogRecord {
        let stamp = timestampUs ?? senderTimeUs(sequence)
        let message = DroneState(sequence: sequence, timestampUs: stamp, navdataSequence: sequence, stateBits: 0,
                                 controlState: .flying, batteryPercent: 80, altitudeM: 2, pitchDeg: 0, rollDeg: 0,
                                 yawDeg: 0, velocityXMps: 0, velocityYMps: 0, velocityZMps: 0)
        // Fixture values are valid: encoding cannot fail.
        let payload = (try? message.encoded()) ?? []
        return (try? LogRecord(receiveTimeUs: stamp + receiveDelayUs, topic: topic, payload: payload, retain: retain))
            ?? (try! LogRecord(receiveTimeUs: 0, topic: "", payload: []))
    }

    /// Sequences `first...last` of `topic` missing, with any sender stamp after the epoch.
    static func missing(_ first: UInt32, _ last: UInt32) -> MissingRange {
        MissingRange(topic: topic, first: first, last: last, notBefore: WallInstant(us: 0),
                     notAfter: WallInstant(us: .max))
    }

    static func sequences(_ records: [LogRecord]) -> [UInt32] {
        records.compactMap { RecordKey($0)?.sequence }
    }
}
