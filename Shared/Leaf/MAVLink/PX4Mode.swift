/// PX4's `custom_mode`: main mode in bits 16–23, sub mode in bits 24–31.
public struct PX4Mode: Sendable, Hashable, CustomStringConvertible {
    public var main: UInt8
    public var sub: UInt8

    public init(main: UInt8, sub: UInt8 = 0) {
        self.main = main
        self.sub = sub
    }

    public init(customMode: UInt32) {
        main = UInt8(truncatingIfNeeded: customMode >> 16)
        sub = UInt8(truncatingIfNeeded: customMode >> 24)
    }

    public var customMode: UInt32 { UInt32(main) << 16 | UInt32(sub) << 24 }

    public static let mainManual: UInt8 = 1
    public static let mainAltitudeControl: UInt8 = 2
    public static let mainPositionControl: UInt8 = 3
    public static let mainAuto: UInt8 = 4
    public static let mainOffboard: UInt8 = 6
    public static let subTakeoff: UInt8 = 2
    public static let subLoiter: UInt8 = 3
    public static let subMission: UInt8 = 4
    public static let subReturn: UInt8 = 5
    public static let subLand: UInt8 = 6

    public static let offboard = PX4Mode(main: mainOffboard)
    public static let hold = PX4Mode(main: mainAuto, sub: subLoiter)
    public static let takeoff = PX4Mode(main: mainAuto, sub: subTakeoff)
    public static let land = PX4Mode(main: mainAuto, sub: subLand)
    public static let position = PX4Mode(main: mainPositionControl)
    public static let altitude = PX4Mode(main: mainAltitudeControl)
    public static let manual = PX4Mode(main: mainManual)
    public static let returnToLaunch = PX4Mode(main: mainAuto, sub: subReturn)
    public static let mission = PX4Mode(main: mainAuto, sub: subMission)

    public var isOffboard: Bool { main == PX4Mode.mainOffboard }

    public var description: String {
        switch (main, sub) {
        case (PX4Mode.mainOffboard, _): "offboard"
        case (PX4Mode.mainAuto, PX4Mode.subLoiter): "hold"
        case (PX4Mode.mainAuto, PX4Mode.subTakeoff): "takeoff"
        case (PX4Mode.mainAuto, PX4Mode.subLand): "land"
        case (PX4Mode.mainAuto, PX4Mode.subReturn): "return"
        case (PX4Mode.mainAuto, PX4Mode.subMission): "mission"
        case (PX4Mode.mainPositionControl, _): "position"
        case (PX4Mode.mainAltitudeControl, _): "altitude"
        case (PX4Mode.mainManual, _): "manual"
        case (5, _): "acro"
        case (7, _): "stabilized"
        case (PX4Mode.mainAuto, 7): "follow-target"
        case (PX4Mode.mainAuto, 8): "precision-land"
        default: "\(main)/\(sub)"
        }
    }
}
