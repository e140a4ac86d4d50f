/// A location-broadcaster asking for (or giving up) pilot control. Topic `quad/<id>/pilot/claim`.
/// The controller arbitrates: the earliest valid claim wins; control passes on release or when the
/// pilot's presence goes offline.
public struct ControlClaim: WireMessage {
    public static let messageType = MessageType.controlClaim

    public enum Action: UInt8, Sendable, CaseIterable {
        case claim = 1
        case release = 2
    }

    public var senderId: String
    public var sequence: UInt32
    public var timestampUs: Int64
    public var action: Action
    /// The controller run this is meant for (its ControllerState `runId`); 0 = unaddressed. Format 1.2.
    public var controllerRunId: UInt32

    public init(senderId: String, sequence: UInt32, timestampUs: Int64, action: Action,
                controllerRunId: UInt32 = RunAddress.none) {
        self.senderId = senderId
        self.sequence = sequence
        self.timestampUs = timestampUs
        self.action = action
        self.controllerRunId = controllerRunId
    }
}
