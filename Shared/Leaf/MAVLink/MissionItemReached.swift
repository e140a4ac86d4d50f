/// MISSION_ITEM_REACHED (46): the vehicle reached item `seq`.
public struct MissionItemReached: MAVLinkMessage {
    public static let messageId: UInt32 = 46
    public static let crcExtra: UInt8 = 11
    public static let fullLength = 2

    public var seq: UInt16

    public init(seq: UInt16) { self.seq = seq }

    public init(reading p: inout MAVLinkPayloadReader) { seq = p.read() }

    public func write(to p: inout MAVLinkPayloadWriter) { p.write(seq) }
}
