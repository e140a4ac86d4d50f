/// MISSION_CURRENT (42): the item the vehicle flies to now, of `total`, and the mission's state.
public struct MissionCurrent: MAVLinkMessage {
    public static let messageId: UInt32 = 42
    public static let crcExtra: UInt8 = 28
    public static let baseLength = 2
    public static let fullLength = 6

    public var seq: UInt16
    // Extensions.
    public var total: UInt16 = 0
    /// MISSION_STATE: 1 no mission, 2 not started, 3 active, 4 paused, 5 complete.
    public var missionState: UInt8 = 0
    public var missionMode: UInt8 = 0

    public init(seq: UInt16, total: UInt16, missionState: UInt8, missionMode: UInt8 = 0) {
        self.seq = seq
        self.total = total
        self.missionState = missionState
        self.missionMode = missionMode
    }

    public init(reading p: inout MAVLinkPayloadReader) {
        seq = p.read()
        total = p.read()
        missionState = p.read()
        missionMode = p.read()
    }

    public func write(to p: inout MAVLinkPayloadWriter) {
        p.write(seq)
        p.write(total)
        p.write(missionState)
        p.write(missionMode)
    }
}
