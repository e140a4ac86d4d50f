/// Where the drone should fly (ground → navigator and controller). Topic `quad/<id>/target`.
public struct Target: WireMessage {
    public static let messageType = MessageType.target
    /// Who published it (MQTT does not tell subscribers); 1–64 bytes of UTF-8.
    public var senderId: String
    public var sequence: UInt32
    public var timestampUs: Int64
    public var latitudeDeg: Double
    public var longitudeDeg: Double
    /// Altitude above ground to fly at, metres (≥ 0); nil = the controller's cruise altitude.
    public var altitudeM: Float?
    /// How long after `timestampUs` the target may still be acted on, seconds; 0 = no expiry.
    public var ttlS: Float
    /// The controller run this is meant for (its ControllerState `runId`); 0 = unaddressed. Format 1.2.
    public var controllerRunId: UInt32

    public init(senderId: String, sequence: UInt32, timestampUs: Int64, latitudeDeg: Double, longitudeDeg: Double,
                altitudeM: Float? = nil, ttlS: Float = 0, controllerRunId: UInt32 = RunAddress.none) {
        self.senderId = senderId
        self.sequence = sequence
        self.timestampUs = timestampUs
        self.latitudeDeg = latitudeDeg
        self.longitudeDeg = longitudeDeg
        self.altitudeM = altitudeM
        self.ttlS = ttlS
        self.controllerRunId = controllerRunId
    }
}
