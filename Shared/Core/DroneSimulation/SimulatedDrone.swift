import Navigation

/// A software AR.Drone 2.0: the true state of the airframe plus what it was last told.
/// Pure value: inputs come in through the `apply…` methods, time through `step(dtS:)`.
public struct SimulatedDrone: Sendable {
    public var parameters: SimulationParameters
    /// Origin of the local east/north frame.
    public let home: GeoPoint

    // True state.
    public internal(set) var eastM: Double = 0
    public internal(set) var northM: Double = 0
    public internal(set) var altitudeM: Double = 0
    /// True heading, degrees clockwise from north, [0, 360).
    public internal(set) var headingDeg: Double
    public internal(set) var velocityEastMps: Double = 0
    public internal(set) var velocityNorthMps: Double = 0
    /// Positive = climbing.
    public internal(set) var verticalSpeedMps: Double = 0
    public internal(set) var yawRateDegPerS: Double = 0
    /// Negative = nose down (flying forward), as in the SDK.
    public internal(set) var pitchDeg: Double = 0
    /// Positive = right wing down.
    public internal(set) var rollDeg: Double = 0
    public internal(set) var batteryPct: Double = 100
    public internal(set) var flightState: FlightState = .landed
    public internal(set) var minorState: UInt16 = MinorState.ok
    /// Motors cut; stays set until the next 0→1 edge of REF bit 8.
    public internal(set) var isEmergency = false
    public internal(set) var isLinkLost = false
    public internal(set) var isFlatTrimmed = false
    /// Seconds since start.
    public internal(set) var elapsedS: Double = 0

    // Inputs as last received.
    public internal(set) var referenceBits: UInt32 = 0
    public internal(set) var command: ProgressiveCommand = .hover

    /// Set by an automatic landing (lost link, flat battery): no new takeoff until REF bit 9 has been seen at 0,
    /// so a client that still holds "fly" does not bounce straight back up.
    var isTakeoffInhibited = false
    var linkLostForS: Double = 0
    var random: SeededRandom

    public init(home: GeoPoint, headingDeg: Double = 0, parameters: SimulationParameters = .init(), seed: UInt64) {
        self.home = home
        self.headingDeg = Geodesy.wrapDeg360(headingDeg)
        self.parameters = parameters
        self.random = SeededRandom(seed: seed)
    }

    public static let flyBit: UInt32 = 1 << 9
    public static let emergencyBit: UInt32 = 1 << 8

    public var isFlyBitHeld: Bool { referenceBits & SimulatedDrone.flyBit != 0 }
    public var isLowBattery: Bool { batteryPct < parameters.lowBatteryPct }
    public var areMotorsOn: Bool { !isEmergency && flightState.isAirborne }
    public var groundSpeedMps: Double {
        (velocityEastMps * velocityEastMps + velocityNorthMps * velocityNorthMps).squareRoot()
    }

    /// AT*REF. Bit 9 is level-triggered (held = fly); bit 8 toggles emergency on its 0→1 edge.
    public mutating func applyReference(bits: UInt32) {
        let emergencyEdge = bits & SimulatedDrone.emergencyBit != 0
            && referenceBits & SimulatedDrone.emergencyBit == 0
        referenceBits = bits
        if emergencyEdge { toggleEmergency() }
        if !isFlyBitHeld { isTakeoffInhibited = false }
    }

    /// AT*PCMD. Ignored while the link is lost (the drone has stopped listening).
    public mutating func applyProgressiveCommand(_ command: ProgressiveCommand) {
        guard !isLinkLost else { return }
        self.command = command
    }

    /// AT*FTRIM. Honoured only on the ground; returns whether it was.
    @discardableResult
    public mutating func applyFlatTrim() -> Bool {
        guard flightState == .landed, altitudeM <= 0 else { return false }
        isFlatTrimmed = true
        return true
    }

    /// The session reports the link lost after ~2 s without AT commands, and back when commands resume.
    public mutating func setLinkLost(_ lost: Bool) {
        guard lost != isLinkLost else { return }
        isLinkLost = lost
        linkLostForS = 0
        guard lost else { return }
        command = .hover
        // The state changes at the moment of the loss, not at the next physics step: a trace row written in the
        // same tick must not show a lost link while still "flying".
        if flightState == .flying || flightState == .hovering {
            flightState = .hovering
            minorState = MinorState.hoveringLostCom
        }
    }

    mutating func toggleEmergency() {
        isEmergency.toggle()
        if isEmergency {
            // Motors off: whatever it was doing, it is now a falling (or resting) brick.
            flightState = .landed
            minorState = MinorState.ok
            command = .hover
        }
    }
}
