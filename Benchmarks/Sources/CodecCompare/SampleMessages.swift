import QuadProtocol

/// One realistic value of every bus message, as a flight would send it (Berlin, mid-flight).
public enum SampleMessages {
    static let nowUs: Int64 = 1_718_000_000_123_456

    public static let target = Target(
        senderId: "laptop-anna", sequence: 42, timestampUs: nowUs, latitudeDeg: 52.516_275, longitudeDeg: 13.377_704,
        altitudeM: 3, ttlS: 10)
    public static let command = Command(senderId: "laptop-anna", sequence: 7, timestampUs: nowUs, kind: .takeoff)
    public static let controlClaim = ControlClaim(
        senderId: "laptop-anna", sequence: 3, timestampUs: nowUs, action: .claim)
    public static let navigationSolution = NavigationSolution(
        sequence: 1234, timestampUs: nowUs, targetSequence: 42, targetLatitudeDeg: 52.516_275,
        targetLongitudeDeg: 13.377_704, droneLatitudeDeg: 52.516_01, droneLongitudeDeg: 13.377_1, distanceM: 49.7,
        bearingDeg: 52.3, headingDeg: 40.1, directionDifferenceDeg: 12.2, positionAgeMs: 40, headingAgeMs: 12,
        targetAgeMs: 900)
    public static let flightCommand = FlightCommand(
        sequence: 99_000, timestampUs: nowUs, refMode: .fly, progressive: true, rollFrac: 0.05, pitchFrac: -0.2,
        gazFrac: 0, yawFrac: 0.12)
    public static let droneState = DroneState(
        sequence: 8_100, timestampUs: nowUs, navdataSequence: 81_234, stateBits: 0x0480_0C05, controlState: .flying,
        controlMinorState: 1, batteryPercent: 87, altitudeM: 1.02, pitchDeg: -2.4, rollDeg: 0.6, yawDeg: 40.1,
        velocityXMps: 0.98, velocityYMps: -0.04, velocityZMps: 0.01, magnetoHeadingDeg: 40.3)
    public static let positionFix = PositionFix(
        sequence: 8_100, timestampUs: nowUs, latitudeDeg: 52.516_01, longitudeDeg: 13.377_1, altitudeM: 35.2,
        headingDeg: 40.3, horizontalAccuracyM: 1.4, satellites: 9, source: .droneGPS)
    public static let controllerState = ControllerState(
        sequence: 55, timestampUs: nowUs, activity: .flyingToTarget, reason: .newTarget, pilotId: "laptop-anna",
        targetLatitudeDeg: 52.516_275, targetLongitudeDeg: 13.377_704, distanceToTargetM: 49.7)
    public static let linkStatus = LinkStatus(
        sequence: 300, timestampUs: nowUs, connected: true, fallbackHover: false, reason: .ok, navdataPerSecond: 15,
        checksumErrors: 0, malformedPackets: 0, lastNavdataAgeMs: 20, lastCommandAgeMs: 12)
}
