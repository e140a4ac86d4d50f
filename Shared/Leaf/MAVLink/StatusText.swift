/// STATUSTEXT (253): one line of text for the operator ("Failsafe activated"), up to 50 bytes, NUL-padded.
public struct StatusText: MAVLinkMessage {
    public static let messageId: UInt32 = 253
    public static let crcExtra: UInt8 = 83
    public static let baseLength = 51
    public static let fullLength = 54
    public static let textByteCount = 50

    /// MAV_SEVERITY: 2 critical, 4 warning, 6 info.
    public var severity: UInt8
    public var text: String
    // Extensions: a longer text's chunks share an id (0 = one chunk only).
    public var id: UInt16 = 0
    public var chunkSeq: UInt8 = 0

    public static let critical: UInt8 = 2
    public static let warning: UInt8 = 4
    public static let info: UInt8 = 6

    public init(severity: UInt8, text: String) {
        self.severity = severity
        self.text = text
    }

    public init(reading p: inout MAVLinkPayloadReader) {
        severity = p.read()
        let bytes = p.array(UInt8.self, count: Self.textByteCount)
        text = String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        id = p.read()
        chunkSeq = p.read()
    }

    public func write(to p: inout MAVLinkPayloadWriter) {
        p.write(severity)
        p.array(Array(text.utf8.prefix(Self.textByteCount)), count: Self.textByteCount)
        p.write(id)
        p.write(chunkSeq)
    }
}
