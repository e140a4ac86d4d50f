/// Health of the UDP link to the drone (drone-link → everyone). Topic `quad/<id>/telemetry/link` (retained).
public struct LinkStatus: WireMessage {
    public static let messageType = MessageType.linkStatus

    public enum Reason: UInt8, Sendable, CaseIterable {
        case ok = 0
        /// No navdata for the link's timeout; the trigger is being re-sent.
        case navdataLost = 1
        /// No fresh flight command for 250 ms: sending hover.
        case commandTimeout = 2
        /// Still configuring navdata (bootstrap / config ACK handshake).
        case configuring = 3
    }

    public var sequence: UInt32
    public var timestampUs: Int64
    public var connected: Bool
    /// True while the link substitutes hover for missing flight commands.
    public var fallbackHover: Bool
    public var reason: Reason
    public var navdataPerSecond: Float
    public var checksumErrors: UInt32
    public var malformedPackets: UInt32
    public var lastNavdataAgeMs: UInt32
    public var lastCommandAgeMs: UInt32
    /// The autopilot's answer to the link's last command (format 1.2); nil from links that send none (AR.Drone)
    /// and before the first answer.
    public var commandAck: CommandAck?

    public init(sequence: UInt32, timestampUs: Int64, connected: Bool, fallbackHover: Bool, reason: Reason,
                navdataPerSecond: Float, checksumErrors: UInt32, malformedPackets: UInt32, lastNavdataAgeMs: UInt32,
                lastCommandAgeMs: UInt32, commandAck: CommandAck? = nil) {
        self.sequence = sequence
        self.timestampUs = timestampUs
        self.connected = connected
        self.fallbackHover = fallbackHover
        self.reason = reason
        self.navdataPerSecond = navdataPerSecond
        self.checksumErrors = checksumErrors
        self.malformedPackets = malformedPackets
        self.lastNavdataAgeMs = lastNavdataAgeMs
        self.lastCommandAgeMs = lastCommandAgeMs
        self.commandAck = commandAck
    }
}
