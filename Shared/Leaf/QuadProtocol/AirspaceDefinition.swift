/// Where the drone may fly, as uploaded (ground → drone-controller, issue 38). Topic `quad/<id>/airspace`. The wire
/// form of the `Airspace` module's zones: the controller validates it the same way the ground tool did before
/// sending, keeps it under its state directory and answers with its `checksum` in `AirspaceStatus`.
public struct AirspaceDefinition: WireMessage {
    public static let messageType = MessageType.airspaceDefinition

    /// One vertex or centre, decimal degrees.
    public struct Vertex: Sendable, Equatable {
        public var latitudeDeg: Double
        public var longitudeDeg: Double

        public init(latitudeDeg: Double, longitudeDeg: Double) {
            self.latitudeDeg = latitudeDeg
            self.longitudeDeg = longitudeDeg
        }
    }

    public struct Zone: Sendable, Equatable {
        public enum Kind: UInt8, Sendable, CaseIterable {
            case inclusion = 1
            case keepOut = 2
        }

        public enum Shape: Sendable, Equatable {
            /// The outer ring first, then the holes; vertices in order, not repeated at the end.
            case polygon(rings: [[Vertex]])
            case circle(centre: Vertex, radiusM: Double)
        }

        /// The zone's name from its file (unique in one airspace), 1–64 bytes.
        public var name: String
        public var kind: Kind
        public var shape: Shape

        public init(name: String, kind: Kind, shape: Shape) {
            self.name = name
            self.kind = kind
            self.shape = shape
        }
    }

    /// Who uploaded it; 1–64 bytes. Not part of `checksum`.
    public var senderId: String
    public var sequence: UInt32
    public var timestampUs: Int64
    /// Above this altitude is refused, metres (the drone's altitude datum: above its takeoff ground).
    public var ceilingM: Double
    /// Below this altitude is refused; nil: no floor.
    public var floorM: Double?
    /// The distance kept from every zone's edge, metres (≥ 0).
    public var marginM: Double
    public var zones: [Zone]

    public init(senderId: String, sequence: UInt32, timestampUs: Int64, ceilingM: Double, floorM: Double? = nil,
                marginM: Double, zones: [Zone]) {
        self.senderId = senderId
        self.sequence = sequence
        self.timestampUs = timestampUs
        self.ceilingM = ceilingM
        self.floorM = floorM
        self.marginM = marginM
        self.zones = zones
    }
}

extension AirspaceDefinition {
    /// What `airspace/held` carries while none is held: zero zones (the circle around home applies); its ceiling
    /// and margin mean nothing. An upload is never empty (the ground tool refuses a file with no zone).
    public static func none(senderId: String, timestampUs: Int64) -> AirspaceDefinition {
        AirspaceDefinition(senderId: senderId, sequence: 0, timestampUs: timestampUs, ceilingM: 0, marginM: 0,
                           zones: [])
    }

    /// True for `none`: no airspace held.
    public var isNone: Bool { zones.isEmpty }
}
