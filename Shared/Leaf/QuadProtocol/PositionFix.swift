/// A position (and optionally heading) of the drone. Topic `quad/<id>/telemetry/position`.
public struct PositionFix: WireMessage {
    public static let messageType = MessageType.positionFix

    public enum Source: UInt8, Sendable, CaseIterable {
        /// AR.Drone navdata GPS option (tag 27, Flight Recorder).
        case droneGPS = 1
        /// A gpsd on the drone board.
        case gpsd = 2
        /// Set by hand or by a test.
        case manual = 3
    }

    public var sequence: UInt32
    public var timestampUs: Int64
    public var latitudeDeg: Double
    public var longitudeDeg: Double
    /// Altitude above mean sea level, metres; nil when unknown.
    public var altitudeM: Float?
    /// Degrees clockwise from true north, [0, 360); nil when the source has no heading.
    public var headingDeg: Float?
    /// Estimated horizontal error (1 sigma), metres; nil when unknown.
    public var horizontalAccuracyM: Float?
    public var satellites: UInt8
    public var source: Source

    public init(sequence: UInt32, timestampUs: Int64, latitudeDeg: Double, longitudeDeg: Double,
        altitudeM: Float? = nil,
                headingDeg: Float? = nil, horizontalAccuracyM: Float? = nil, satellites: UInt8 = 0, source: Source) {
        self.sequence = sequence
        self.timestampUs = timestampUs
        self.latitudeDeg = latitudeDeg
        self.longitudeDeg = longitudeDeg
        self.altitudeM = altitudeM
        self.headingDeg = headingDeg
        self.horizontalAccuracyM = horizontalAccuracyM
        self.satellites = satellites
        self.source = source
    }
}
