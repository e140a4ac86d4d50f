/// Body: presence u8 (bit 0 altitudeM, bit 1 headingDeg, bit 2 horizontalAccuracyM), latitudeDeg f64,
/// longitudeDeg f64, altitudeM f32, headingDeg f32, horizontalAccuracyM f32, satellites u8, source u8.
extension PositionFix {
    public func validate() throws(WireError) {
        try WireCheck.latitude(latitudeDeg, "latitudeDeg")
        try WireCheck.longitude(longitudeDeg, "longitudeDeg")
        try WireCheck.finite(altitudeM, "altitudeM")
        try WireCheck.degrees360(headingDeg, "headingDeg")
        try WireCheck.nonNegative(horizontalAccuracyM, "horizontalAccuracyM")
    }

    public func encodeBody(into writer: inout WireWriter) {
        writer.presence([altitudeM != nil, headingDeg != nil, horizontalAccuracyM != nil])
        writer.f64(latitudeDeg)
        writer.f64(longitudeDeg)
        writer.f32(altitudeM)
        writer.f32(headingDeg)
        writer.f32(horizontalAccuracyM)
        writer.u8(satellites)
        writer.enumeration(source)
    }

    public init(sequence: UInt32, timestampUs: Int64, body: inout WireReader) throws(WireError) {
        let present = try body.presence(count: 3)
        self.init(
            sequence: sequence, timestampUs: timestampUs, latitudeDeg: try body.f64(), longitudeDeg: try body.f64(),
            altitudeM: try body.f32(ifPresent: present[0]), headingDeg: try body.f32(ifPresent: present[1]),
            horizontalAccuracyM: try body.f32(ifPresent: present[2]), satellites: try body.u8(),
            source: try body.enumeration(Source.self, "source"))
    }

    public func writeJSONFields(into object: inout JSONObjectWriter) {
        object.add("latitude_deg", latitudeDeg)
        object.add("longitude_deg", longitudeDeg)
        object.add("altitude_m", altitudeM)
        object.add("heading_deg", headingDeg)
        object.add("horizontal_accuracy_m", horizontalAccuracyM)
        object.add("satellites", satellites)
        object.add("source", source.jsonName)
    }
}
