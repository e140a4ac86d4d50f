import Checksums

/// Body: senderId str8, then what `checksum` covers: presence u8 (bit 0 floorM), ceilingM f64, floorM f64,
/// marginM f64, zoneCount u16, and per zone: kind u8, name str8, shape u8 (1 polygon, 2 circle); a polygon:
/// ringCount u8 (the outer ring first), per ring vertexCount u16 and (latitudeDeg f64, longitudeDeg f64) each;
/// a circle: latitudeDeg f64, longitudeDeg f64, radiusM f64. PROTOCOL.md "AirspaceDefinition".
extension AirspaceDefinition {
    /// At most this many zones, rings per polygon and vertices per ring (the u16 and u8 counts, and a payload
    /// of at most about 1 MB).
    public static let maxZones = 1000
    public static let maxRings = 255
    public static let maxVertices = 20_000
    /// Vertices of all zones together.
    public static let maxTotalVertices = 60_000

    enum ShapeCode: UInt8, CaseIterable {
        case polygon = 1
        case circle = 2
    }

    public func validate() throws(WireError) {
        try WireCheck.string(senderId, "senderId", bytes: WireCheck.senderIdBytes)
        try WireCheck.finite(ceilingM, "ceilingM")
        if let floorM { try WireCheck.finite(floorM, "floorM") }
        try WireCheck.nonNegative(marginM, "marginM")
        try Self.count(zones.count, "zones", max: Self.maxZones)
        var total = 0
        for zone in zones {
            try WireCheck.string(zone.name, "zone name", bytes: WireCheck.senderIdBytes)
            switch zone.shape {
            case .polygon(let rings):
                try Self.count(rings.count, "rings", max: Self.maxRings, min: 1)
                for ring in rings {
                    try Self.count(ring.count, "vertices", max: Self.maxVertices)
                    total += ring.count
                    for vertex in ring { try Self.check(vertex) }
                }
            case .circle(let centre, let radiusM):
                try Self.check(centre)
                try WireCheck.nonNegative(radiusM, "radiusM")
            }
        }
        try Self.count(total, "vertices in all zones", max: Self.maxTotalVertices)
    }

    public func encodeBody(into writer: inout WireWriter) {
        writer.string(senderId)
        writer.append(checkedBytes)
    }

    /// The bytes `checksum` covers: everything after `senderId`.
    var checkedBytes: [UInt8] {
        var writer = WireWriter(capacity: 64 + zones.count * 64)
        writer.presence([floorM != nil])
        writer.f64(ceilingM)
        writer.f64(floorM)
        writer.f64(marginM)
        writer.u16(UInt16(clamping: zones.count))
        for zone in zones {
            writer.enumeration(zone.kind)
            writer.string(zone.name)
            switch zone.shape {
            case .polygon(let rings):
                writer.enumeration(ShapeCode.polygon)
                writer.u8(UInt8(clamping: rings.count))
                for ring in rings {
                    writer.u16(UInt16(clamping: ring.count))
                    for vertex in ring { Self.write(vertex, into: &writer) }
                }
            case .circle(let centre, let radiusM):
                writer.enumeration(ShapeCode.circle)
                Self.write(centre, into: &writer)
                writer.f64(radiusM)
            }
        }
        return writer.bytes
    }

    /// CRC-32 (IEEE) of the body after `senderId`: the same zones, limits and margin give the same checksum
    /// whoever sends them and whenever, so the ground compares it with the board's (`AirspaceStatus`).
    public var checksum: UInt32 { CRC32.ieee.checksum(checkedBytes) }

    public init(sequence: UInt32, timestampUs: Int64, body: inout WireReader) throws(WireError) {
        let senderId = try body.string("senderId")
        let present = try body.presence(count: 1)
        let ceilingM = try body.f64()
        let floorM = try body.f64(ifPresent: present[0])
        let marginM = try body.f64()
        let zoneCount = Int(try body.u16())
        var zones: [Zone] = []
        for _ in 0..<zoneCount {
            let kind = try body.enumeration(Zone.Kind.self, "zone kind")
            let name = try body.string("zone name")
            switch try body.enumeration(ShapeCode.self, "zone shape") {
            case .polygon:
                let ringCount = Int(try body.u8())
                var rings: [[Vertex]] = []
                for _ in 0..<ringCount {
                    let vertexCount = Int(try body.u16())
                    var ring: [Vertex] = []
                    for _ in 0..<vertexCount { ring.append(try Self.readVertex(&body)) }
                    rings.append(ring)
                }
                zones.append(Zone(name: name, kind: kind, shape: .polygon(rings: rings)))
            case .circle:
                let centre = try Self.readVertex(&body)
                zones.append(Zone(name: name, kind: kind, shape: .circle(centre: centre, radiusM: try body.f64())))
            }
        }
        self.init(senderId: senderId, sequence: sequence, timestampUs: timestampUs, ceilingM: ceilingM,
                  floorM: floorM, marginM: marginM, zones: zones)
    }

    public func writeJSONFields(into object: inout JSONObjectWriter) {
        object.add("sender_id", senderId)
        object.add("ceiling_m", ceilingM)
        object.add("floor_m", floorM)
        object.add("margin_m", marginM)
        object.add("zone_count", zones.count)
        object.add("checksum", checksum)
    }

    private static func write(_ vertex: Vertex, into writer: inout WireWriter) {
        writer.f64(vertex.latitudeDeg)
        writer.f64(vertex.longitudeDeg)
    }

    private static func readVertex(_ body: inout WireReader) throws(WireError) -> Vertex {
        Vertex(latitudeDeg: try body.f64(), longitudeDeg: try body.f64())
    }

    private static func check(_ vertex: Vertex) throws(WireError) {
        try WireCheck.latitude(vertex.latitudeDeg, "latitudeDeg")
        try WireCheck.longitude(vertex.longitudeDeg, "longitudeDeg")
    }

    private static func count(_ value: Int, _ field: String, max: Int, min: Int = 0) throws(WireError) {
        guard (min...max).contains(value) else {
            throw .outOfRange(field: field, expected: "[\(min), \(max)]", got: Double(value))
        }
    }
}
