/// HEARTBEAT (0): who is there, what it is, armed or not, which mode. Sent at 1 Hz by every system.
public struct Heartbeat: MAVLinkMessage {
    public static let messageId: UInt32 = 0
    public static let crcExtra: UInt8 = 50
    public static let fullLength = 9

    /// Autopilot-specific mode; PX4: main mode in bits 16–23, sub mode in bits 24–31 (see `PX4Mode`).
    public var customMode: UInt32
    /// MAV_TYPE: 2 quadrotor, 6 GCS, 18 onboard controller.
    public var type: UInt8
    /// MAV_AUTOPILOT: 12 PX4, 3 ArduPilot, 8 invalid (not an autopilot).
    public var autopilot: UInt8
    /// MAV_MODE_FLAG bits (`MAVModeFlag`).
    public var baseMode: UInt8
    /// MAV_STATE: 3 standby, 4 active, 5 critical, 6 emergency.
    public var systemStatus: UInt8
    public var mavlinkVersion: UInt8

    public init(customMode: UInt32 = 0, type: UInt8, autopilot: UInt8, baseMode: UInt8 = 0, systemStatus: UInt8 = 0,
                mavlinkVersion: UInt8 = 3) {
        self.customMode = customMode
        self.type = type
        self.autopilot = autopilot
        self.baseMode = baseMode
        self.systemStatus = systemStatus
        self.mavlinkVersion = mavlinkVersion
    }

    public init(reading p: inout MAVLinkPayloadReader) {
        customMode = p.read()
        type = p.read()
        autopilot = p.read()
        baseMode = p.read()
        systemStatus = p.read()
        mavlinkVersion = p.read()
    }

    public func write(to p: inout MAVLinkPayloadWriter) {
        p.write(customMode)
        p.write(type)
        p.write(autopilot)
        p.write(baseMode)
        p.write(systemStatus)
        p.write(mavlinkVersion)
    }

    public var isArmed: Bool { baseMode & MAVModeFlag.safetyArmed != 0 }
}
