import Navigation
import QuadProtocol

/// The `mission` section of a QGroundControl `.plan` file (JSON, `"fileType": "Plan"`): `items[]` of type
/// `SimpleItem` (`command`, `frame`, `params[7]`; QGroundControl writes NaN parameters as null), the multicopter's
/// `hoverSpeed` (else `cruiseSpeed`, the fixed-wing speed) and `plannedHomePosition` `[lat, lon, amsl]`. Commands:
/// 22 takeoff (params[6] altitude), 16 waypoint (params[0] hold s, params[1] acceptance radius m, 0: the default),
/// 19 loiter time (params[0] s), 178 change speed (params[1] m/s), 21 land (at params[4..5], or in place when
/// they are 0 or null), 20 return to launch; params[4..6] are latitude, longitude and altitude. Positions must be
/// frame 3 (altitude relative to home); the commands without a position may be frame 2 (MAV_FRAME_MISSION) too.
/// A `ComplexItem` (survey, corridor scan) and any other command are refused with the item's index. The result is
/// parsed, not yet validated (`MissionPlan.validate(limits:)`).
public enum QGCPlanParser {
    static let relativeAltitudeFrame = 3
    static let missionFrame = 2
    static let supportedCommands: Set<Int> = [22, 16, 19, 178, 21, 20]

    public static func plan(_ bytes: [UInt8]) throws(MissionPlanError) -> MissionPlan {
        let root: JSONValue
        do { root = try JSONValue.parse(bytes, maxDepth: 32) } catch {
            throw .malformed(at: "the document", reason: "not JSON: \(error)")
        }
        guard root["fileType"]?.stringValue == "Plan" else {
            throw .malformed(at: "fileType", reason: "expected \"Plan\" (is this a .plan file?)")
        }
        guard let mission = root["mission"], case .object = mission else {
            throw .malformed(at: "mission", reason: "expected an object")
        }
        guard let items = mission["items"]?.arrayValue else {
            throw .malformed(at: "mission.items", reason: "expected an array")
        }
        var kinds: [MissionItem.Kind] = []
        for (index, item) in items.enumerated() {
            kinds.append(try kind(item, index: index))
        }
        let speed = mission["hoverSpeed"] ?? mission["cruiseSpeed"]
        var home: GeoPoint?
        if let planned = mission["plannedHomePosition"]?.arrayValue, planned.count >= 2 {
            home = GeoPoint(latitudeDeg: try number(planned[0], "mission.plannedHomePosition[0]"),
                            longitudeDeg: try number(planned[1], "mission.plannedHomePosition[1]"))
        }
        return MissionPlan(kinds: kinds, cruiseSpeedMps: try speed.map { v throws(MissionPlanError) in
            try number(v, "mission." + (mission["hoverSpeed"] == nil ? "cruiseSpeed" : "hoverSpeed"))
        }, plannedHome: home)
    }

    static func kind(_ item: JSONValue, index: Int) throws(MissionPlanError) -> MissionItem.Kind {
        let at = "mission.items[\(index)]"
        switch item["type"]?.stringValue {
        case "SimpleItem": break
        case "ComplexItem":
            throw .complexItem(item: index, complexItemType: item["complexItemType"]?.stringValue ?? "unnamed")
        default: throw .malformed(at: at + ".type", reason: "expected \"SimpleItem\" or \"ComplexItem\"")
        }
        guard let command = item["command"]?.intValue else {
            throw .malformed(at: at + ".command", reason: "expected an integer")
        }
        guard let params = item["params"]?.arrayValue, params.count == 7 else {
            throw .malformed(at: at + ".params", reason: "expected an array of 7 numbers or nulls")
        }
        guard let frame = item["frame"]?.intValue else {
            throw .malformed(at: at + ".frame", reason: "expected an integer")
        }
        func param(_ i: Int) throws(MissionPlanError) -> Double { try number(params[i], "\(at).params[\(i)]") }
        /// null (QGroundControl's NaN): not given.
        func optional(_ i: Int) throws(MissionPlanError) -> Double? {
            params[i] == .null ? nil : try param(i)
        }
        func point() throws(MissionPlanError) -> GeoPoint {
            GeoPoint(latitudeDeg: try param(4), longitudeDeg: try param(5))
        }
        guard supportedCommands.contains(command) else { throw .unknownCommand(item: index, command: command) }
        let positional = [16, 19, 21, 22].contains(command)
        guard frame == relativeAltitudeFrame || (!positional && frame == missionFrame) else {
            throw .unsupportedFrame(item: index, frame: frame)
        }
        switch command {
        case 22: return .takeoff(altitudeM: try param(6))
        case 16:
            let radiusM = try optional(1) ?? 0
            return .waypoint(try point(), altitudeM: try param(6), holdTime: .seconds(clamping: try optional(0) ?? 0),
                             acceptanceRadiusM: radiusM == 0 ? MissionItem.defaultAcceptanceRadiusM : radiusM)
        case 19: return .loiterTime(try point(), altitudeM: try param(6), time: .seconds(clamping: try param(0)))
        case 178: return .changeSpeed(speedMps: try param(1))
        case 21:
            let lat = try optional(4), lon = try optional(5)
            guard let lat, let lon, lat != 0 || lon != 0 else { return .land(nil) }
            return .land(GeoPoint(latitudeDeg: lat, longitudeDeg: lon))
        case 20: return .returnToLaunch
        default: throw .unknownCommand(item: index, command: command)
        }
    }

    static func number(_ value: JSONValue?, _ at: String) throws(MissionPlanError) -> Double {
        guard let number = value?.finiteDouble else { throw .malformed(at: at, reason: "expected a finite number") }
        return number
    }
}
