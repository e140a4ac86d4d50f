import Checksums
import Clocks
import MAVLink
import Mission
import Navigation

/// The board's held plan as the autopilot's own mission (MAVLink mission type 0), so a MAVLink vehicle can finish
/// it (or return, as its failsafe parameters say) when the board dies. The board flies the plan itself while it
/// lives (docs/missions.md "Who flies when"); this copy is flown only when the autopilot is put in its mission mode.
///
/// Items as QGroundControl writes them, positions in MAV_FRAME_GLOBAL_RELATIVE_ALT_INT: takeoff (22) where the
/// vehicle stands, waypoint (16: hold s, acceptance radius m), loiter-time (19: time s), change speed (178: ground
/// speed), land (21: at its point, else at the point before it), return to launch (20). The plan's cruise speed goes
/// first as a change-speed item; ArduPilot's list starts with its home (item 0, which it keeps as its own).
public struct AutopilotMission: Sendable, Equatable {
    public var plan: MissionPlan
    /// Where the vehicle stood when the copy was made: a takeoff item's position (it climbs where it stands).
    public var origin: GeoPoint

    public init(plan: MissionPlan, origin: GeoPoint) {
        self.plan = plan
        self.origin = origin
    }

    /// The autopilot's number of the board's item `id`.
    public func seq(ofItem id: Int, flavor: AutopilotFlavor) -> Int { id + leadingItems(flavor: flavor) }

    /// The board's item id of the autopilot's `seq`, nil for an item the board does not have (home, cruise speed).
    public func item(ofSeq seq: Int, flavor: AutopilotFlavor) -> Int? {
        let id = seq - leadingItems(flavor: flavor)
        return plan.items.indices.contains(id) ? id : nil
    }

    private func leadingItems(flavor: AutopilotFlavor) -> Int {
        (flavor == .ardupilot ? 1 : 0) + (plan.cruiseSpeedMps == nil ? 0 : 1)
    }

    static func e7(_ degrees: Double) -> Int32 { Int32(clamping: Int64((degrees * 1e7).rounded())) }

    private static func positional(_ command: UInt16, _ point: GeoPoint, altitudeM: Double,
                                   params: [Float]) -> MissionItemInt {
        MissionItemInt(seq: 0, command: command, frame: MAVFrame.globalRelativeAltInt, x: e7(point.latitudeDeg),
                       y: e7(point.longitudeDeg), z: Float(altitudeM), targetSystem: 0, targetComponent: 0,
                       params: params)
    }

    private static func changeSpeed(_ speedMps: Double) -> MissionItemInt {
        // param1 1: ground speed; param3 -1: throttle unchanged.
        MissionItemInt(seq: 0, command: MAVCmd.doChangeSpeed, frame: MAVFrame.mission, x: 0, y: 0, z: 0,
                       targetSystem: 0, targetComponent: 0, params: [1, Float(speedMps), -1, 0])
    }

    /// The board's items, each as one MAVLink item (ids and sequence numbers stay one to one).
    private var planItems: [MissionItemInt] {
        var previous = origin
        return plan.items.map { item in
            defer { previous = item.point ?? previous }
            switch item.kind {
            case let .takeoff(altitudeM):
                return Self.positional(MAVCmd.navTakeoff, origin, altitudeM: altitudeM, params: [0, 0, 0, .nan])
            case let .waypoint(point, altitudeM, holdTime, acceptanceRadiusM):
                return Self.positional(MAVCmd.navWaypoint, point, altitudeM: altitudeM,
                                       params: [Float(holdTime.inSeconds), Float(acceptanceRadiusM), 0, .nan])
            case let .loiterTime(point, altitudeM, time):
                return Self.positional(MAVCmd.navLoiterTime, point, altitudeM: altitudeM,
                                       params: [Float(time.inSeconds), 0, 0, .nan])
            case let .changeSpeed(speedMps):
                return Self.changeSpeed(speedMps)
            case let .land(point):
                return Self.positional(MAVCmd.navLand, point ?? previous, altitudeM: 0, params: [0, 0, 0, .nan])
            case .returnToLaunch:
                return MissionItemInt(seq: 0, command: MAVCmd.navReturnToLaunch, frame: MAVFrame.mission, x: 0,
                                      y: 0, z: 0, targetSystem: 0, targetComponent: 0)
            }
        }
    }
}

extension AutopilotMission: AutopilotList {
    public static var missionType: UInt8 { MAVMissionType.mission }
    public static var noun: String { "mission" }
    public static var boardName: String { "the board's plan" }
    public var checksum: UInt32 { plan.checksum }
    public var notes: [String] { [] }

    public func items(flavor: AutopilotFlavor) -> [MissionItemInt] {
        var items: [MissionItemInt] = []
        if flavor == .ardupilot {
            // Item 0 is ArduPilot's home: it keeps its own, whatever is sent.
            items.append(Self.positional(MAVCmd.navWaypoint, origin, altitudeM: 0, params: []))
        }
        if let cruise = plan.cruiseSpeedMps { items.append(Self.changeSpeed(cruise)) }
        return items + planItems
    }

    public func parameters(flavor: AutopilotFlavor) -> [FenceParameters.Setting] { [] }

    /// Compared as the autopilots store it: positions to 1e-7° (PX4 rounds doubles on the way out), altitudes to
    /// 1 cm (ArduPilot keeps centimetres), times to 1 s (ArduCopter keeps whole seconds), a speed to 0.05 m/s; the
    /// frame and the parameters an autopilot does not keep (yaw, ArduCopter's acceptance radius) are not compared.
    public func difference(from readBack: [MissionItemInt], flavor: AutopilotFlavor) -> String? {
        let sent = items(flavor: flavor)
        guard readBack.count == sent.count else {
            return "the autopilot holds \(readBack.count) mission items, the board's plan makes \(sent.count)"
        }
        let first = flavor == .ardupilot ? 1 : 0
        for seq in first..<sent.count {
            let want = sent[seq], got = readBack[seq]
            guard let why = Self.difference(want, got) else { continue }
            let board = item(ofSeq: seq, flavor: flavor).map { "board item \($0)" } ?? "the cruise speed"
            return "mission item \(seq) (\(board)) differs: \(why)"
        }
        return nil
    }

    private static func difference(_ want: MissionItemInt, _ got: MissionItemInt) -> String? {
        guard want.command == got.command else { return "command \(got.command), not \(want.command)" }
        switch want.command {
        case MAVCmd.doChangeSpeed:
            return abs(want.params[1] - got.params[1]) <= 0.05 ? nil : "speed \(got.params[1]), not \(want.params[1])"
        case MAVCmd.navReturnToLaunch:
            return nil
        default:
            if abs(Int64(want.x) - Int64(got.x)) > 1 || abs(Int64(want.y) - Int64(got.y)) > 1 {
                return "at \(got.x),\(got.y), not \(want.x),\(want.y)"
            }
            if want.command != MAVCmd.navLand, abs(want.z - got.z) > 0.01 {
                return "altitude \(got.z) m, not \(want.z) m"
            }
            if want.command == MAVCmd.navWaypoint || want.command == MAVCmd.navLoiterTime,
               abs(want.params[0] - got.params[0]) >= 1 {
                return "time \(got.params[0]) s, not \(want.params[0]) s"
            }
            return nil
        }
    }


    public func status(accepted: Bool, refusal: String?) -> MissionStatus {
        MissionStatus(sequence: 0, heldChecksum: accepted ? checksum : nil,
                      refusal: refusal.map { .init(planChecksum: checksum, item: nil, reason: $0) })
    }
}
