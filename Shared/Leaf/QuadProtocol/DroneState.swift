/// Summary of one navdata packet (link → everyone). Topic `quad/<id>/telemetry/drone`.
public struct DroneState: WireMessage {
    public static let messageType = MessageType.droneState

    /// Major control state from navdata demo `ctrl_state >> 16` (SDK CTRL_STATES).
    public enum ControlState: UInt8, Sendable, CaseIterable {
        case unknown = 0, initializing = 1, landed = 2, flying = 3, hovering = 4, test = 5
        case takingOff = 6, goingToFix = 7, landing = 8, looping = 9

        /// The drone is in the air (flying, hovering, going to fix or looping).
        public var isAirborne: Bool { [.flying, .hovering, .goingToFix, .looping].contains(self) }
    }

    public var sequence: UInt32
    public var timestampUs: Int64
    /// Navdata packet sequence number as the drone sent it.
    public var navdataSequence: UInt32
    /// Raw 32-bit drone state word (bit 0 flying, 15 low battery, 31 emergency, …).
    public var stateBits: UInt32
    public var controlState: ControlState
    /// Minor control state (meaning depends on `controlState`).
    public var controlMinorState: UInt16
    public var batteryPercent: UInt8
    public var altitudeM: Float
    public var pitchDeg: Float
    public var rollDeg: Float
    public var yawDeg: Float
    /// Velocities in the drone's body frame, metres per second.
    public var velocityXMps: Float
    public var velocityYMps: Float
    public var velocityZMps: Float
    /// Compass heading from the magneto option, degrees clockwise from north; nil when not reported.
    public var magnetoHeadingDeg: Float?

    public init(sequence: UInt32, timestampUs: Int64, navdataSequence: UInt32, stateBits: UInt32,
                controlState: ControlState, controlMinorState: UInt16 = 0, batteryPercent: UInt8, altitudeM: Float,
                pitchDeg: Float, rollDeg: Float, yawDeg: Float, velocityXMps: Float, velocityYMps: Float,
                velocityZMps: Float, magnetoHeadingDeg: Float? = nil) {
        self.sequence = sequence
        self.timestampUs = timestampUs
        self.navdataSequence = navdataSequence
        self.stateBits = stateBits
        self.controlState = controlState
        self.controlMinorState = controlMinorState
        self.batteryPercent = batteryPercent
        self.altitudeM = altitudeM
        self.pitchDeg = pitchDeg
        self.rollDeg = rollDeg
        self.yawDeg = yawDeg
        self.velocityXMps = velocityXMps
        self.velocityYMps = velocityYMps
        self.velocityZMps = velocityZMps
        self.magnetoHeadingDeg = magnetoHeadingDeg
    }
}
