/// The few common.xml enum values the link and the simulator use (MAV_CMD and MAV_RESULT have their own files).
public enum MAVModeFlag {
    public static let customModeEnabled: UInt8 = 1
    public static let autoEnabled: UInt8 = 4
    public static let guidedEnabled: UInt8 = 8
    public static let stabilizeEnabled: UInt8 = 16
    public static let manualInputEnabled: UInt8 = 64
    public static let safetyArmed: UInt8 = 128
}

public enum MAVFrame {
    public static let localNED: UInt8 = 1
    public static let bodyNED: UInt8 = 8
    public static let global: UInt8 = 0
    /// A mission item without a position (DO_CHANGE_SPEED, RETURN_TO_LAUNCH).
    public static let mission: UInt8 = 2
    public static let globalRelativeAlt: UInt8 = 3
    public static let globalInt: UInt8 = 5
    public static let globalRelativeAltInt: UInt8 = 6
}

/// MAV_TYPE / MAV_AUTOPILOT / MAV_STATE values.
public enum MAVType {
    public static let quadrotor: UInt8 = 2
    public static let gcs: UInt8 = 6
    public static let onboardController: UInt8 = 18
}

public enum MAVAutopilot {
    public static let ardupilot: UInt8 = 3
    public static let invalid: UInt8 = 8
    public static let px4: UInt8 = 12
}

public enum MAVState {
    public static let standby: UInt8 = 3
    public static let active: UInt8 = 4
    public static let critical: UInt8 = 5
}

/// MAV_MISSION_TYPE: which list a mission message is about.
public enum MAVMissionType {
    public static let mission: UInt8 = 0
    public static let fence: UInt8 = 1
    public static let rally: UInt8 = 2
}
