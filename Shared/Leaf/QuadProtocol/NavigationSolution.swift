/// Navigator output: where the target is relative to the drone. Topic `quad/<id>/telemetry/navigation`.
public struct NavigationSolution: WireMessage {
    public static let messageType = MessageType.navigationSolution
    public var sequence: UInt32
    public var timestampUs: Int64
    /// Sequence number of the Target this solution was computed for.
    public var targetSequence: UInt32
    public var targetLatitudeDeg: Double
    public var targetLongitudeDeg: Double
    public var droneLatitudeDeg: Double
    public var droneLongitudeDeg: Double
    /// Great-circle distance drone → target, metres.
    public var distanceM: Double
    /// Initial bearing drone → target, degrees clockwise from true north, [0, 360).
    public var bearingDeg: Double
    /// Drone heading used, degrees clockwise from true north, [0, 360).
    public var headingDeg: Double
    /// bearing − heading − mount offset, wrapped to [−180, 180); positive = target is to the right.
    public var directionDifferenceDeg: Double
    /// Age of the inputs when this was computed, milliseconds.
    public var positionAgeMs: UInt32
    public var headingAgeMs: UInt32
    public var targetAgeMs: UInt32

    public init(sequence: UInt32, timestampUs: Int64, targetSequence: UInt32, targetLatitudeDeg: Double,
                targetLongitudeDeg: Double, droneLatitudeDeg: Double, droneLongitudeDeg: Double, distanceM: Double,
                bearingDeg: Double, headingDeg: Double, directionDifferenceDeg: Double, positionAgeMs: UInt32,
                headingAgeMs: UInt32, targetAgeMs: UInt32) {
        self.sequence = sequence
        self.timestampUs = timestampUs
        self.targetSequence = targetSequence
        self.targetLatitudeDeg = targetLatitudeDeg
        self.targetLongitudeDeg = targetLongitudeDeg
        self.droneLatitudeDeg = droneLatitudeDeg
        self.droneLongitudeDeg = droneLongitudeDeg
        self.distanceM = distanceM
        self.bearingDeg = bearingDeg
        self.headingDeg = headingDeg
        self.directionDifferenceDeg = directionDifferenceDeg
        self.positionAgeMs = positionAgeMs
        self.headingAgeMs = headingAgeMs
        self.targetAgeMs = targetAgeMs
    }
}
