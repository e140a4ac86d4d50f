import Checksums
import Mission
import QuadProtocol

/// The fields of each message worth a column or a glance, as text (shared by CSV and the SVG caption).
enum MessageKeyFields {
    struct Position {
        var latitudeDeg: Double
        var longitudeDeg: Double
        var altitudeM: Float?
    }

    static func position(of message: AnyWireMessage) -> Position? {
        switch message {
        case .positionFix(let m):
            Position(latitudeDeg: m.latitudeDeg, longitudeDeg: m.longitudeDeg, altitudeM: m.altitudeM)
        case .target(let m): Position(latitudeDeg: m.latitudeDeg, longitudeDeg: m.longitudeDeg, altitudeM: m.altitudeM)
        case .navigationSolution(let m): Position(latitudeDeg: m.droneLatitudeDeg, longitudeDeg: m.droneLongitudeDeg)
        default: nil
        }
    }

    static func pairs(of message: AnyWireMessage) -> [(String, String)] {
        switch message {
        case .target(let m): [("sender_id", m.senderId), ("ttl_s", text(m.ttlS))]
        case .command(let m): [("sender_id", m.senderId), ("kind", m.kind.word)]
        case .controlClaim(let m): [("sender_id", m.senderId), ("action", m.action.jsonName)]
        case .groundBeacon(let m): [("sender_id", m.senderId)]
        case .navigationSolution(let m):
            [("distance_m", text(m.distanceM)), ("bearing_deg", text(m.bearingDeg)),
             ("direction_difference_deg", text(m.directionDifferenceDeg))]
        case .flightCommand(let m):
            [("ref", m.refMode.jsonName), ("progressive", String(m.progressive)), ("roll", text(m.rollFrac)),
             ("pitch", text(m.pitchFrac)), ("gaz", text(m.gazFrac)), ("yaw", text(m.yawFrac))]
        case .droneState(let m):
            [("control_state", m.controlState.jsonName), ("battery_percent", String(m.batteryPercent)),
             ("altitude_m", text(m.altitudeM)), ("yaw_deg", text(m.yawDeg))]
        case .positionFix(let m):
            [("heading_deg", m.headingDeg.map(text) ?? ""), ("satellites", String(m.satellites)),
             ("source", m.source.jsonName)]
        case .controllerState(let m):
            [("activity", m.activity.jsonName), ("reason", m.reason.code), ("pilot_id", m.pilotId),
             ("distance_to_target_m", m.distanceToTargetM.map(text) ?? "")]
        case .linkStatus(let m):
            [("connected", String(m.connected)), ("reason", m.reason.jsonName),
             ("navdata_per_second", text(m.navdataPerSecond))]
                + (m.commandAck.map { [("ack_command", $0.command.jsonName), ("ack_result", $0.result.jsonName)] }
                    ?? [])
        case .airspaceDefinition(let m):
            [("sender_id", m.senderId), ("zones", String(m.zones.count)), ("checksum", CRC32.text(m.checksum))]
        case .airspaceStatus(let m):
            [("checksum", m.accepted.map { CRC32.text($0.checksum) } ?? ""),
             ("zones", m.accepted.map { String($0.zoneCount) } ?? "")]
        case .airspaceRoutePlan(let m):
            [("purpose", m.purpose.jsonName), ("corners", String(m.corners.count)),
             ("next_corner", String(m.nextCorner)), ("zone_name", m.zoneName)]
        }
    }

    /// A mission payload's fields worth a glance, `key=value` by spaces (the CSV's fields column).
    static func pairs(ofMission payload: MissionPayload) -> String {
        let pairs: [(String, String)] = switch payload {
        case .upload(let m):
            [("sender_id", m.senderId), ("plan_checksum", CRC32.text(m.plan.checksum)),
             ("items", String(m.plan.items.count))]
        case .command(let m):
            [("sender_id", m.senderId), ("kind", "\(m.kind)"), ("plan_checksum", CRC32.text(m.planChecksum))]
        case .progress(let m):
            [("plan_checksum", CRC32.text(m.record.planChecksum)), ("state", m.record.state.jsonName),
             ("current_item", String(m.record.currentItem)), ("reached", String(m.record.reached.count))]
        case .status(let m):
            [("held_checksum", m.heldChecksum.map(CRC32.text) ?? ""), ("refusal", m.refusal?.reason ?? "")]
        }
        return pairs.map { "\($0)=\($1)" }.joined(separator: " ")
    }

    private static func text(_ value: Float) -> String { value.description }
    private static func text(_ value: Double) -> String { value.description }
}
