#if canImport(Glibc)
import Glibc
#endif
import FlightLog
import Navigation
import QuadProtocol

/// A synthetic flight of drone1: landed at the origin, takeoff, flight along a gentle curve to a target about
/// 60 m north-east, arrival, landing. Includes a status text, an undecodable payload, a hostile sender id and
/// another drone's position (to be ignored).
enum SampleFlight {
    static let startUs: Int64 = 1_714_566_896_000_000
    static let origin = GeoPoint(latitudeDeg: 52.473_30, longitudeDeg: 13.403_60)
    static let target = Geodesy.destination(from: origin, bearingDeg: 40, distanceM: 60)
    static let hostileSender = "pilot<&>\"phone\"'\u{1}, =cmd"

    static func entries() -> [DecodedLogEntry] {
        var entries: [DecodedLogEntry] = []
        var sequence: UInt32 = 0
        func add(_ offsetMs: Int64, _ path: String, _ message: any WireMessage) {
            entries.append(DecodedLogEntry(receiveTimeUs: startUs + offsetMs * 1000, topic: "quad/drone1/\(path)",
                                           message: message))
        }
        func activity(_ ms: Int64, _ activity: ControllerState.Activity, reason: Reason = .unspecified) {
            sequence += 1
            add(ms, "telemetry/controller", ControllerState(
                sequence: sequence, timestampUs: startUs + ms * 1000, activity: activity, reason: reason,
                pilotId: hostileSender, targetLatitudeDeg: ms >= 2000 ? target.latitudeDeg : nil,
                targetLongitudeDeg: ms >= 2000 ? target.longitudeDeg : nil))
        }
        entries.append(DecodedLogEntry(receiveTimeUs: startUs, topic: "quad/drone1/status/drone-controller",
                                       retain: true, qos: 1, payload: Array("online".utf8), content: .text("online")))
        activity(1, .landed)
        for tick in Int64(0)...155 {
            let ms = tick * 200
            let (position, height, state) = pose(atMs: ms)
            let battery = UInt8(80 - tick / 16)
            add(ms + 5, "telemetry/drone", DroneState(
                sequence: UInt32(tick), timestampUs: startUs + ms * 1000, navdataSequence: UInt32(tick),
                stateBits: 0, controlState: state, batteryPercent: battery, altitudeM: height, pitchDeg: 0,
                rollDeg: 0, yawDeg: 40, velocityXMps: 0, velocityYMps: 0, velocityZMps: 0))
            add(ms + 10, "telemetry/position", PositionFix(
                sequence: UInt32(tick), timestampUs: startUs + ms * 1000, latitudeDeg: position.latitudeDeg,
                longitudeDeg: position.longitudeDeg, altitudeM: 34 + height, satellites: 9, source: .gpsd))
            if ms == 2000 {
                add(ms, "target", Target(senderId: hostileSender, sequence: 1, timestampUs: startUs + ms * 1000,
                                         latitudeDeg: target.latitudeDeg, longitudeDeg: target.longitudeDeg,
                                         altitudeM: 3))
                add(ms + 1, "command", Command(senderId: hostileSender, sequence: 1, timestampUs: startUs + ms * 1000,
                                               kind: .takeoff))
                activity(ms + 20, .takingOff)
            }
            if ms == 5000 { activity(ms + 20, .flyingToTarget) }
            if ms == 25_000 { activity(ms + 20, .arrived, reason: .arrived) }
            if ms == 28_000 { activity(ms + 20, .landing) }
            if ms == 30_000 { activity(ms + 20, .landed) }
        }
        entries.append(DecodedLogEntry(receiveTimeUs: startUs + 9_000_000, topic: "quad/drone2/telemetry/position",
                                       message: PositionFix(sequence: 1, timestampUs: startUs, latitudeDeg: 10,
                                                            longitudeDeg: 10, source: .manual)))
        entries.append(DecodedLogEntry(record: try! LogRecord(receiveTimeUs: startUs + 9_500_000,
                                                              topic: "quad/drone1/telemetry/drone",
                                                              payload: [0xFF, 0x00, 0x01])))
        return entries.sorted { $0.receiveTimeUs < $1.receiveTimeUs }
    }

    /// Where the drone is, how high, and its control state at `ms` after the start.
    static func pose(atMs ms: Int64) -> (GeoPoint, Float, DroneState.ControlState) {
        let jitter = Double(ms % 600) / 600 * 0.3
        switch ms {
        case ..<2000: return (Geodesy.destination(from: origin, bearingDeg: 90, distanceM: jitter), 0, .landed)
        case ..<5000:
            let height = Float(ms - 2000) / 1000
            return (Geodesy.destination(from: origin, bearingDeg: 300, distanceM: 0.5 + jitter), height,
                    ms < 4000 ? .takingOff : .hovering)
        case ..<25_000:
            // A curved path: the straight line to the target bent by up to 8 m to the left.
            let fraction = Double(ms - 5000) / 20_000
            let along = Geodesy.destination(from: origin, bearingDeg: 40, distanceM: 60 * fraction)
            let bend = 8 * sin(fraction * .pi)
            return (Geodesy.destination(from: along, bearingDeg: 310, distanceM: bend), 3, .flying)
        case ..<28_000:
            return (Geodesy.destination(from: target, bearingDeg: 200, distanceM: 0.8 + jitter), 3, .hovering)
        case ..<30_000:
            return (Geodesy.destination(from: target, bearingDeg: 200, distanceM: 1), Float(30_000 - ms) / 667,
                .landing)
        default: return (Geodesy.destination(from: target, bearingDeg: 200, distanceM: 1), 0, .landed)
        }
    }
}
