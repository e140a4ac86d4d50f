/// Every binary payload on the bus is one of these. The codec (see PROTOCOL.md) writes a fixed header
/// (magic, format major.minor, message type, sequence, timestamp) followed by the body of the concrete type.
public protocol WireMessage: Sendable, Equatable {
    /// The message type byte in the header; unique per message.
    static var messageType: MessageType { get }
    /// Per-sender counter, +1 per message sent on a topic; lets a receiver see gaps and duplicates.
    var sequence: UInt32 { get }
    /// Sender's wall clock, microseconds since the Unix epoch.
    var timestampUs: Int64 { get }

    /// Throws for the first field that breaks the rules in PROTOCOL.md (finite floats, ranges, string lengths).
    /// Both the encoder and the decoder run it, so nothing encodable is ever rejected by a decoder.
    func validate() throws(WireError)
    /// Writes the body (everything after the header) in declaration order.
    func encodeBody(into writer: inout WireWriter)
    /// Reads the body; `validate()` runs afterwards.
    init(sequence: UInt32, timestampUs: Int64, body: inout WireReader) throws(WireError)
    /// Adds the body fields, snake_case keys in declaration order, for the JSON view.
    func writeJSONFields(into object: inout JSONObjectWriter)
}

/// Message type identifiers. Values are part of the wire format: never reuse or renumber.
public enum MessageType: UInt8, Sendable, CaseIterable {
    case target = 1
    case command = 2
    case navigationSolution = 3
    case flightCommand = 4
    case droneState = 5
    case positionFix = 6
    case controllerState = 7
    case linkStatus = 8
    case controlClaim = 9
    /// New in format 1.2.
    case groundBeacon = 10
    /// New after 1.4 (issue 38): the airspace upload and the controller's answer.
    case airspaceDefinition = 11
    case airspaceStatus = 12
    /// The controller's way around keep-out zones (issue 38).
    case airspaceRoutePlan = 13
}

extension WireMessage {
    /// Header + body. Throws (instead of producing bytes every decoder would reject) when `validate()` fails.
    public func encoded() throws(WireError) -> [UInt8] {
        try validate()
        var writer = WireWriter(capacity: 64)
        WireHeader(messageType: Self.messageType, sequence: sequence, timestampUs: timestampUs).write(into: &writer)
        encodeBody(into: &writer)
        return writer.bytes
    }

    /// Decodes a binary payload that must be of this message type.
    public init(decoding payload: [UInt8]) throws(WireError) {
        let header = try WireHeader(parsing: payload)
        guard header.messageType == Self.messageType else {
            throw .wrongMessageType(expected: Self.messageType, got: header.messageType)
        }
        try self.init(header: header, payload: payload)
    }

    /// Decodes the body after an already parsed header of the right type.
    init(header: WireHeader, payload: [UInt8]) throws(WireError) {
        var reader = WireReader(payload: payload, type: Self.messageType, minor: header.minor,
                                offset: WireHeader.byteCount)
        try self.init(sequence: header.sequence, timestampUs: header.timestampUs, body: &reader)
        // Same minor: the layout is fully known, so leftovers mean a broken sender. Newer minor: ignore them.
        if header.minor <= WireHeader.currentMinor, reader.remaining > 0 {
            throw .bodyTooLong(type: Self.messageType, expectedBytes: reader.bodyBytesRead,
                               gotBytes: reader.bodyBytesTotal)
        }
        try validate()
    }

    /// `{"type":"target","sequence":…,"timestamp_us":…,<fields>}` with keys in a fixed order.
    public func jsonObjectText() -> String {
        var object = JSONObjectWriter()
        object.add("type", Self.messageType.jsonName)
        object.add("sequence", sequence)
        object.add("timestamp_us", timestampUs)
        writeJSONFields(into: &object)
        return object.finished()
    }
}
