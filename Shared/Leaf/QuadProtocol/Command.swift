/// A pilot command (ground → controller). Topic `quad/<id>/command`.
public struct Command: WireMessage {
    public static let messageType = MessageType.command

    public enum Kind: UInt8, Sendable, CaseIterable {
        case takeoff = 1
        case land = 2
        case hover = 3
        case emergency = 4
        case reset = 5
        case flatTrim = 6
        /// Fly back to the takeoff point, hover, land. Format 1.1: a 1.0 payload carrying it is rejected.
        case returnHome = 7

        /// The bare word accepted on the command topic (`mosquitto_pub -m takeoff`).
        public var word: String {
            switch self {
            case .takeoff: "takeoff"
            case .land: "land"
            case .hover: "hover"
            case .emergency: "emergency"
            case .reset: "reset"
            case .flatTrim: "flat-trim"
            case .returnHome: "return"
            }
        }

        /// The format minor that introduced the kind: a payload of an older minor cannot carry it (its sender's
        /// decoder would have rejected it too), so it is rejected as an unknown value, as before the bump.
        public var introducedInMinor: UInt8 { self == .returnHome ? 1 : 0 }
    }

    public var senderId: String
    public var sequence: UInt32
    public var timestampUs: Int64
    public var kind: Kind
    /// The controller run this is meant for (its ControllerState `runId`); 0 = unaddressed. Format 1.2.
    public var controllerRunId: UInt32

    public init(senderId: String, sequence: UInt32, timestampUs: Int64, kind: Kind,
                controllerRunId: UInt32 = RunAddress.none) {
        self.senderId = senderId
        self.sequence = sequence
        self.timestampUs = timestampUs
        self.kind = kind
        self.controllerRunId = controllerRunId
    }
}
