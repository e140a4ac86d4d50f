/// Body: purpose u8 (0 none, 1 target, 2 returnHome), goalLatitudeDeg f64, goalLongitudeDeg f64,
/// startLatitudeDeg f64, startLongitudeDeg f64, lengthM f64, straightM f64, nextCorner u8, zoneName str8,
/// cornerCount u8 (≤ 64), per corner latitudeDeg f64, longitudeDeg f64. PROTOCOL.md "AirspaceRoutePlan".
extension AirspaceRoutePlan {
    public func validate() throws(WireError) {
        try Self.count(corners.count, "cornerCount")
        if purpose == .none, !corners.isEmpty {
            throw .outOfRange(field: "cornerCount", expected: "0 for purpose none", got: Double(corners.count))
        }
        guard (0...corners.count).contains(nextCorner) else {
            throw .outOfRange(field: "nextCorner", expected: "[0, \(corners.count)]", got: Double(nextCorner))
        }
        for (point, name) in [(goal, "goal"), (start, "start")] + corners.map({ ($0, "corner") }) {
            try WireCheck.latitude(point.latitudeDeg, "\(name) latitudeDeg")
            try WireCheck.longitude(point.longitudeDeg, "\(name) longitudeDeg")
        }
        try WireCheck.nonNegative(lengthM, "lengthM")
        try WireCheck.nonNegative(straightM, "straightM")
        try WireCheck.string(zoneName, "zoneName", bytes: Self.zoneNameBytes)
    }

    public func encodeBody(into writer: inout WireWriter) {
        writer.enumeration(purpose)
        Self.write(goal, into: &writer)
        Self.write(start, into: &writer)
        writer.f64(lengthM)
        writer.f64(straightM)
        writer.u8(UInt8(clamping: nextCorner))
        writer.string(zoneName)
        writer.u8(UInt8(clamping: corners.count))
        for corner in corners { Self.write(corner, into: &writer) }
    }

    public init(sequence: UInt32, timestampUs: Int64, body: inout WireReader) throws(WireError) {
        let purpose = try body.enumeration(Purpose.self, "purpose")
        let goal = try Self.readPoint(&body)
        let start = try Self.readPoint(&body)
        let lengthM = try body.f64()
        let straightM = try body.f64()
        let nextCorner = Int(try body.u8())
        let zoneName = try body.string("zoneName")
        let cornerCount = Int(try body.u8())
        // Refused before reading them: more corners than a route may have is a broken sender.
        try Self.count(cornerCount, "cornerCount")
        var corners: [Point] = []
        for _ in 0..<cornerCount { corners.append(try Self.readPoint(&body)) }
        self.init(sequence: sequence, timestampUs: timestampUs, purpose: purpose, goal: goal, start: start,
                  corners: corners, nextCorner: nextCorner, lengthM: lengthM, straightM: straightM, zoneName: "")
        // Not cut on the way in: a name longer than the limit is refused by `validate`.
        self.zoneName = zoneName
    }

    public func writeJSONFields(into object: inout JSONObjectWriter) {
        object.add("purpose", purpose.jsonName)
        object.add("goal_latitude_deg", goal.latitudeDeg)
        object.add("goal_longitude_deg", goal.longitudeDeg)
        object.add("start_latitude_deg", start.latitudeDeg)
        object.add("start_longitude_deg", start.longitudeDeg)
        object.add("length_m", lengthM)
        object.add("straight_m", straightM)
        object.add("next_corner", nextCorner)
        object.add("zone_name", zoneName)
        object.add("corner_count", corners.count)
    }

    private static func count(_ value: Int, _ field: String) throws(WireError) {
        guard (0...maxCorners).contains(value) else {
            throw .outOfRange(field: field, expected: "[0, \(maxCorners)]", got: Double(value))
        }
    }

    private static func write(_ point: Point, into writer: inout WireWriter) {
        writer.f64(point.latitudeDeg)
        writer.f64(point.longitudeDeg)
    }

    private static func readPoint(_ body: inout WireReader) throws(WireError) -> Point {
        Point(latitudeDeg: try body.f64(), longitudeDeg: try body.f64())
    }
}

extension AirspaceRoutePlan.Purpose {
    /// The JSON view's word.
    public var jsonName: String {
        switch self {
        case .none: "none"
        case .target: "target"
        case .returnHome: "return_home"
        }
    }
}
