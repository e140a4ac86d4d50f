/// What drone-link must send to the drone right now (controller → link). Topic `quad/<id>/flight/command`.
/// The PCMD fields use the AR.Drone SDK sign conventions as they go on the wire: negative pitch flies
/// forward, positive roll flies right, positive gaz climbs, positive yaw turns clockwise.
public struct FlightCommand: WireMessage {
    public static let messageType = MessageType.flightCommand

    /// What AT*REF should say. Take-off and landing are level-triggered: the link repeats it every tick.
    public enum RefMode: UInt8, Sendable, CaseIterable {
        /// REF bit 9 = 0: land / stay landed.
        case land = 0
        /// REF bit 9 = 1: take off / stay flying.
        case fly = 1
        /// Cut the motors now (REF bit 8 while not in emergency).
        case emergencyCutoff = 2
        /// Leave the emergency state (hold REF bit 8 until navdata's emergency bit clears).
        case emergencyRecover = 3
    }

    public var sequence: UInt32
    public var timestampUs: Int64
    public var refMode: RefMode
    /// One-shot flat trim request; the link only sends AT*FTRIM while the drone is landed.
    public var flatTrim: Bool
    /// false = PCMD flag 0: ignore the values and hold position (hover).
    public var progressive: Bool
    /// Fractions of the configured maxima, each in [−1, 1].
    public var rollFrac: Float
    public var pitchFrac: Float
    public var gazFrac: Float
    public var yawFrac: Float
    /// The takeoff this command asks for (1.3; 0 = none). `fly` alone only keeps a vehicle flying: a link arms a
    /// vehicle it sees on the ground only for an id it first received after seeing it there (`TakeoffGate`).
    public var takeoffId: UInt32

    public init(sequence: UInt32, timestampUs: Int64, refMode: RefMode, flatTrim: Bool = false,
                progressive: Bool = false, rollFrac: Float = 0, pitchFrac: Float = 0, gazFrac: Float = 0,
                yawFrac: Float = 0, takeoffId: UInt32 = 0) {
        self.sequence = sequence
        self.timestampUs = timestampUs
        self.refMode = refMode
        self.flatTrim = flatTrim
        self.progressive = progressive
        self.rollFrac = rollFrac
        self.pitchFrac = pitchFrac
        self.gazFrac = gazFrac
        self.yawFrac = yawFrac
        self.takeoffId = takeoffId
    }
}
