/// Frames outgoing messages as one system/component: MAVLink 2, sequence numbers 0, 1, … wrapping at 255.
public struct MAVLinkEncoder: Sendable {
    public let systemId: UInt8
    public let componentId: UInt8
    public private(set) var sequence: UInt8 = 0

    public init(systemId: UInt8, componentId: UInt8) {
        self.systemId = systemId
        self.componentId = componentId
    }

    public mutating func encode<M: MAVLinkMessage>(_ message: M) -> [UInt8] {
        let frame = MAVLinkFrame(sequence: sequence, systemId: systemId, componentId: componentId,
                                 messageId: M.messageId, payload: message.payload)
        sequence &+= 1
        return frame.encoded(crcExtra: M.crcExtra)
    }
}
