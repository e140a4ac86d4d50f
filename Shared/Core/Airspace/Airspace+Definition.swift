import Navigation
import QuadProtocol

/// The airspace's wire form (`AirspaceDefinition`, topic `quad/<id>/airspace`) and back.
extension Airspace {
    /// Validates the uploaded zones as a file's are (`AirspaceError` says what and where).
    public init(_ definition: AirspaceDefinition) throws(AirspaceError) {
        try self.init(zones: definition.zones.map(Zone.init), ceilingM: definition.ceilingM,
                      floorM: definition.floorM, marginM: definition.marginM)
    }

    /// This airspace as uploaded by `senderId` (sequence and stamp are the sender's to set).
    public func definition(senderId: String, sequence: UInt32 = 1, timestampUs: Int64 = 0) -> AirspaceDefinition {
        AirspaceDefinition(senderId: senderId, sequence: sequence, timestampUs: timestampUs, ceilingM: ceilingM,
                           floorM: floorM, marginM: marginM, zones: zones.map(AirspaceDefinition.Zone.init))
    }
}

extension Zone {
    init(_ wire: AirspaceDefinition.Zone) {
        let shape: Shape = switch wire.shape {
        case .polygon(let rings):
            .polygon(outer: rings.first.map { $0.map(GeoPoint.init) } ?? [],
                     holes: rings.dropFirst().map { $0.map(GeoPoint.init) })
        case .circle(let centre, let radiusM): .circle(centre: GeoPoint(centre), radiusM: radiusM)
        }
        self.init(name: wire.name, kind: wire.kind == .keepOut ? .keepOut : .inclusion, shape: shape)
    }
}

extension AirspaceDefinition.Zone {
    init(_ zone: Zone) {
        let shape: Shape = switch zone.shape {
        case .polygon(let outer, let holes):
            .polygon(rings: ([outer] + holes).map { $0.map(AirspaceDefinition.Vertex.init) })
        case .circle(let centre, let radiusM): .circle(centre: .init(centre), radiusM: radiusM)
        }
        self.init(name: zone.name, kind: zone.kind == .keepOut ? .keepOut : .inclusion, shape: shape)
    }
}

extension GeoPoint {
    init(_ vertex: AirspaceDefinition.Vertex) {
        self.init(latitudeDeg: vertex.latitudeDeg, longitudeDeg: vertex.longitudeDeg)
    }
}

extension AirspaceDefinition.Vertex {
    init(_ point: GeoPoint) {
        self.init(latitudeDeg: point.latitudeDeg, longitudeDeg: point.longitudeDeg)
    }
}

extension Violation.Kind {
    /// The wire's code for the rule.
    public var wire: AirspaceStatus.Violation {
        switch self {
        case .insideKeepOut: .insideKeepOut
        case .outsideInclusion: .outsideInclusion
        case .withinMargin: .withinMargin
        case .aboveCeiling: .aboveCeiling
        case .belowFloor: .belowFloor
        case .legCrossesZone: .legCrossesZone
        }
    }
}
