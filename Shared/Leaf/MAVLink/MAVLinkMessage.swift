/// One MAVLink message type of the common dialect: its id, CRC_EXTRA and wire layout (fields sorted by size, largest
/// first; extension fields last in declaration order). Each value is checked against pymavlink's generated
/// `dialects/v20/common.py` by the golden-frame tests.
public protocol MAVLinkMessage: Sendable, Equatable {
    static var messageId: UInt32 { get }
    static var crcExtra: UInt8 { get }
    /// Length without extension fields (what a MAVLink 1 frame carries).
    static var baseLength: Int { get }
    /// Length with every extension field.
    static var fullLength: Int { get }
    init(reading payload: inout MAVLinkPayloadReader)
    func write(to payload: inout MAVLinkPayloadWriter)
}

extension MAVLinkMessage {
    public static var baseLength: Int { fullLength }

    /// The untruncated payload.
    public var payload: [UInt8] {
        var writer = MAVLinkPayloadWriter()
        write(to: &writer)
        return writer.bytes
    }

    /// The payload a frame of `version` carries: MAVLink 1 knows no extension fields.
    public func payload(for version: MAVLinkFrame.Version) -> [UInt8] {
        version == .v1 ? Array(payload.prefix(Self.baseLength)) : payload
    }

    /// Decodes a payload of any length (shorter ones are zero-extended, longer ones' unknown tail ignored).
    public init(payload: [UInt8]) {
        var reader = MAVLinkPayloadReader(payload, fullLength: Self.fullLength)
        self.init(reading: &reader)
    }
}
