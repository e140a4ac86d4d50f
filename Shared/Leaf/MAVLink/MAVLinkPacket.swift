/// A decoded message with the header fields of the frame it came in.
public struct MAVLinkPacket: Sendable, Equatable {
    public var frame: MAVLinkFrame
    public var message: MAVLinkInbound

    public init(frame: MAVLinkFrame, message: MAVLinkInbound) {
        self.frame = frame
        self.message = message
    }

    public var systemId: UInt8 { frame.systemId }
    public var componentId: UInt8 { frame.componentId }
}
