/// What drone-controller holds of the airspace (issue 38), retained on `quad/<id>/airspace/status`: the accepted
/// airspace's checksum and zone count (what `airspace upload` waits for and `airspace show` prints), the last
/// upload it refused and why, and the last target it refused for the airspace with the zone's name.
public struct AirspaceStatus: WireMessage {
    public static let messageType = MessageType.airspaceStatus

    /// The airspace in force: `AirspaceDefinition.checksum` and its zone count.
    public struct Accepted: Sendable, Equatable {
        public var checksum: UInt32
        public var zoneCount: Int

        public init(checksum: UInt32, zoneCount: Int) {
            self.checksum = checksum
            self.zoneCount = zoneCount
        }
    }

    /// The last upload refused: its checksum and why (at most `reasonBytes`).
    public struct UploadRefusal: Sendable, Equatable {
        public var checksum: UInt32
        public var reason: String

        public init(checksum: UInt32, reason: String) {
            self.checksum = checksum
            self.reason = reason
        }
    }

    /// Which rule of the airspace a target broke.
    public enum Violation: UInt8, Sendable, CaseIterable {
        case insideKeepOut = 1
        case outsideInclusion = 2
        case withinMargin = 3
        case aboveCeiling = 4
        case belowFloor = 5
        /// The target is allowed but the straight leg from the drone to it meets a zone (or its margin).
        case legCrossesZone = 6

        /// In plain words, as the ground tools print it.
        public var text: String {
            switch self {
            case .insideKeepOut: "inside keep-out zone"
            case .outsideInclusion: "outside every inclusion zone"
            case .withinMargin: "within the margin of a zone's edge"
            case .aboveCeiling: "above the ceiling"
            case .belowFloor: "below the floor"
            case .legCrossesZone: "its straight leg meets the zone"
            }
        }
    }

    /// The last target refused for the airspace: where it was, the rule, the zone (empty for ceiling and floor).
    public struct TargetRefusal: Sendable, Equatable {
        public var latitudeDeg: Double
        public var longitudeDeg: Double
        public var violation: Violation
        public var zoneName: String

        public init(latitudeDeg: Double, longitudeDeg: Double, violation: Violation, zoneName: String) {
            self.latitudeDeg = latitudeDeg
            self.longitudeDeg = longitudeDeg
            self.violation = violation
            self.zoneName = zoneName
        }
    }

    public static let reasonBytes = 0...240

    public var sequence: UInt32
    public var timestampUs: Int64
    /// nil: no airspace uploaded (only the --geofence-radius circle applies).
    public var accepted: Accepted?
    public var uploadRefusal: UploadRefusal?
    public var targetRefusal: TargetRefusal?

    public init(sequence: UInt32, timestampUs: Int64, accepted: Accepted? = nil, uploadRefusal: UploadRefusal? = nil,
                targetRefusal: TargetRefusal? = nil) {
        self.sequence = sequence
        self.timestampUs = timestampUs
        self.accepted = accepted
        self.uploadRefusal = uploadRefusal
        self.targetRefusal = targetRefusal
    }
}
