/// Body: targetSequence u32, eight f64 (target lat/lon, drone lat/lon, distance, bearing, heading,
/// direction difference), three u32 ages.
extension NavigationSolution {
    public func validate() throws(WireError) {
        try WireCheck.latitude(targetLatitudeDeg, "targetLatitudeDeg")
        try WireCheck.longitude(targetLongitudeDeg, "targetLongitudeDeg")
        try WireCheck.latitude(droneLatitudeDeg, "droneLatitudeDeg")
        try WireCheck.longitude(droneLongitudeDeg, "droneLongitudeDeg")
        try WireCheck.nonNegative(distanceM, "distanceM")
        try WireCheck.degrees360(bearingDeg, "bearingDeg")
        try WireCheck.degrees360(headingDeg, "headingDeg")
        try WireCheck.degrees180(directionDifferenceDeg, "directionDifferenceDeg")
    }

    public func encodeBody(into writer: inout WireWriter) {
        writer.u32(targetSequence)
        for value in [targetLatitudeDeg, targetLongitudeDeg, droneLatitudeDeg, droneLongitudeDeg, distanceM,
                      bearingDeg, headingDeg, directionDifferenceDeg] {
            writer.f64(value)
        }
        writer.u32(positionAgeMs)
        writer.u32(headingAgeMs)
        writer.u32(targetAgeMs)
    }

    public init(sequence: UInt32, timestampUs: Int64, body: inout WireReader) throws(WireError) {
        self.init(
            sequence: sequence, timestampUs: timestampUs, targetSequence: try body.u32(),
            targetLatitudeDeg: try body.f64(), targetLongitudeDeg: try body.f64(), droneLatitudeDeg: try body.f64(),
            droneLongitudeDeg: try body.f64(), distanceM: try body.f64(), bearingDeg: try body.f64(),
            headingDeg: try body.f64(), directionDifferenceDeg: try body.f64(), positionAgeMs: try body.u32(),
            headingAgeMs: try body.u32(), targetAgeMs: try body.u32())
    }

    public func writeJSONFields(into object: inout JSONObjectWriter) {
        object.add("target_sequence", targetSequence)
        object.add("target_latitude_deg", targetLatitudeDeg)
        object.add("target_longitude_deg", targetLongitudeDeg)
        object.add("drone_latitude_deg", droneLatitudeDeg)
        object.add("drone_longitude_deg", droneLongitudeDeg)
        object.add("distance_m", distanceM)
        object.add("bearing_deg", bearingDeg)
        object.add("heading_deg", headingDeg)
        object.add("direction_difference_deg", directionDifferenceDeg)
        object.add("position_age_ms", positionAgeMs)
        object.add("heading_age_ms", headingAgeMs)
        object.add("target_age_ms", targetAgeMs)
    }
}
