/// MAV_CMD numbers.
public enum MAVCmd {
    public static let navWaypoint: UInt16 = 16
    public static let navLoiterTime: UInt16 = 19
    public static let navReturnToLaunch: UInt16 = 20
    public static let navLand: UInt16 = 21
    public static let navTakeoff: UInt16 = 22
    /// Fence items (mission type `MAVMissionType.fence`): param1 the polygon's vertex count or the circle's radius, m.
    public static let navFenceReturnPoint: UInt16 = 5000
    public static let navFencePolygonVertexInclusion: UInt16 = 5001
    public static let navFencePolygonVertexExclusion: UInt16 = 5002
    public static let navFenceCircleInclusion: UInt16 = 5003
    public static let navFenceCircleExclusion: UInt16 = 5004
    public static let doSetMode: UInt16 = 176
    public static let doChangeSpeed: UInt16 = 178
    public static let doReposition: UInt16 = 192
    public static let missionStart: UInt16 = 300
    public static let getHomePosition: UInt16 = 410
    public static let componentArmDisarm: UInt16 = 400
    public static let setMessageInterval: UInt16 = 511
    public static let requestMessage: UInt16 = 512
    public static let requestAutopilotCapabilities: UInt16 = 520
    /// param2 of COMPONENT_ARM_DISARM that skips the autopilot's checks (disarm in flight = motors stop).
    public static let forceArmDisarmMagic: Float = 21196
}
