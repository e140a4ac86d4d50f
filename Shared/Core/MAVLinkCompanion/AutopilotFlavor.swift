import MAVLink

/// Which autopilot firmware is on the other end (HEARTBEAT `autopilot`): the mode numbers and the takeoff sequence
/// differ. PX4: arm, NAV_TAKEOFF, then OFFBOARD in the air. ArduPilot Copter: GUIDED first, then arm and NAV_TAKEOFF
/// (it takes velocity setpoints in GUIDED).
public enum AutopilotFlavor: Sendable, Equatable {
    case px4, ardupilot

    public init(autopilot: UInt8) {
        self = autopilot == MAVAutopilot.ardupilot ? .ardupilot : .px4
    }

    /// ArduPilot Copter `custom_mode` numbers.
    static let copterAuto: UInt32 = 3
    static let copterGuided: UInt32 = 4
    static let copterLoiter: UInt32 = 5
    static let copterLand: UInt32 = 9

    /// The mode that takes our velocity setpoints: PX4 OFFBOARD, ArduPilot GUIDED.
    var setpointModeName: String { self == .px4 ? "offboard" : "guided" }

    func isSetpointMode(customMode: UInt32) -> Bool {
        self == .px4 ? PX4Mode(customMode: customMode).isOffboard : customMode == Self.copterGuided
    }

    /// The autopilot flies its own mission: PX4 AUTO.MISSION, ArduCopter AUTO.
    func isMissionMode(customMode: UInt32) -> Bool {
        guard self == .px4 else { return customMode == Self.copterAuto }
        let mode = PX4Mode(customMode: customMode)
        return mode.main == PX4Mode.mainAuto && mode.sub == PX4Mode.subMission
    }

    func isLandMode(customMode: UInt32) -> Bool {
        self == .px4 ? PX4Mode(customMode: customMode) == .land : customMode == Self.copterLand
    }

    func modeName(customMode: UInt32) -> String {
        switch self {
        case .px4: "\(PX4Mode(customMode: customMode))"
        case .ardupilot: Self.copterModeNames[customMode] ?? "copter mode \(customMode)"
        }
    }

    /// ArduCopter's mode names, as its ground stations say them (lower case, like PX4's here).
    static let copterModeNames: [UInt32: String] = [
        0: "stabilize", 1: "acro", 2: "alt_hold", copterAuto: "auto", copterGuided: "guided", copterLoiter: "loiter",
        6: "rtl", 7: "circle", copterLand: "land", 11: "drift", 13: "sport", 16: "poshold", 17: "brake",
        21: "smart_rtl",
    ]

    /// DO_SET_MODE params for the setpoint mode (`hold` false) or position hold (`hold` true).
    func setModeParams(hold: Bool) -> [Float] {
        let enabled = Float(MAVModeFlag.customModeEnabled)
        switch self {
        case .px4:
            let mode = hold ? PX4Mode.hold : PX4Mode.offboard
            return [enabled, Float(mode.main), Float(mode.sub)]
        case .ardupilot:
            return [enabled, Float(hold ? Self.copterLoiter : Self.copterGuided)]
        }
    }

    /// DO_SET_MODE params for the autopilot's own mission mode (PX4 AUTO.MISSION, ArduCopter AUTO): it flies its
    /// uploaded mission from its current item.
    var missionModeParams: [Float] {
        let enabled = Float(MAVModeFlag.customModeEnabled)
        return self == .px4 ? [enabled, Float(PX4Mode.mainAuto), Float(PX4Mode.subMission)]
            : [enabled, Float(Self.copterAuto)]
    }

    /// NAV_LAND params: here, wherever that is (PX4: NaN lat/lon; ArduPilot: 0/0).
    var landParams: [Float] {
        self == .px4 ? [0, 0, 0, .nan, .nan, .nan, .nan] : [0, 0, 0, 0, 0, 0, 0]
    }

    /// The height ArduPilot's GUIDED takeoff climbs to (PX4 takes its own MIS_TAKEOFF_ALT, 2.5 m by default).
    static let arduPilotTakeoffAltitudeM: Float = 2.5

    /// NAV_TAKEOFF params: PX4 reads param7 as AMSL (NaN = its MIS_TAKEOFF_ALT); ArduPilot as metres above home.
    var takeoffParams: [Float] {
        self == .px4 ? [0, 0, 0, .nan, .nan, .nan, .nan] : [0, 0, 0, 0, 0, 0, Self.arduPilotTakeoffAltitudeM]
    }
}
