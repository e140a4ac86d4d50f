/// The ground's heartbeat, a few per second from `location-broadcaster beacon`. Topic `quad/<id>/ground/beacon`,
/// QoS 0 (a late beacon is worthless). Across a bridge no Last Will tells the board that the laptop or the radio is
/// gone; the controller times the beacon on its own monotonic clock from receipt (never from its stamp) and on
/// silence applies the lost-pilot policy (reason `ground-link-lost`). Message type 10, new in format 1.2.
public struct GroundBeacon: WireMessage {
    public static let messageType = MessageType.groundBeacon

    public var senderId: String
    public var sequence: UInt32
    public var timestampUs: Int64

    public init(senderId: String, sequence: UInt32, timestampUs: Int64) {
        self.senderId = senderId
        self.sequence = sequence
        self.timestampUs = timestampUs
    }
}
