/// The few common.xml enum values the link and the simulator use.
public enum MAVModeFlag {
    public static let customModeEnabled: UInt8 = 1
    public static let guidedEnabled: UInt8 = 8
    public static let stabilizeEnabled: UInt8 = 16
    public static let safetyArmed: UInt8 = 128
}

public enum MAVFrame {
    public static let localNED: UInt8 = 1
    public static let bodyNED: UInt8 = 8
}

/// MAV_CMD numbers.
public enum MAVCmd {
    public static let navLand: UInt16 = 21
    public static let navTakeoff: UInt16 = 22
    public static let doSetMode: UInt16 = 176
    public static let componentArmDisarm: UInt16 = 400
    public static let setMessageInterval: UInt16 = 511
    public static let requestMessage: UInt16 = 512
    /// param2 of COMPONENT_ARM_DISARM that skips the autopilot's checks (disarm in flight = motors stop).
    public static let forceArmDisarmMagic: Float = 21196
}

/// MAV_RESULT.
public enum MAVResult: UInt8, Sendable, CaseIterable, CustomStringConvertible {
    case accepted = 0, temporarilyRejected = 1, denied = 2, unsupported = 3, failed = 4, inProgress = 5
    case cancelled = 6

    public var description: String {
        switch self {
        case .accepted: "accepted"
        case .temporarilyRejected: "temporarily-rejected"
        case .denied: "denied"
        case .unsupported: "unsupported"
        case .failed: "failed"
        case .inProgress: "in-progress"
        case .cancelled: "cancelled"
        }
    }
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
}
