/// Every binary payload on the bus is one of these. The codec (see PROTOCOL.md) writes a fixed header
/// (magic, format major.minor, message type) followed by the body of the concrete type.
public protocol WireMessage: Sendable, Equatable {
    /// The message type byte in the header; unique per message.
    static var messageType: MessageType { get }
    /// Per-sender counter, +1 per message sent on a topic; lets a receiver see gaps and duplicates.
    var sequence: UInt32 { get }
    /// Sender's wall clock, microseconds since the Unix epoch.
    var timestampUs: Int64 { get }
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
}
