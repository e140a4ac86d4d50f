/// Body: refMode u8, flatTrim u8, progressive u8, rollFrac f32, pitchFrac f32, gazFrac f32, yawFrac f32.
extension FlightCommand {
    public func validate() throws(WireError) {
        try WireCheck.fraction(rollFrac, "rollFrac")
        try WireCheck.fraction(pitchFrac, "pitchFrac")
        try WireCheck.fraction(gazFrac, "gazFrac")
        try WireCheck.fraction(yawFrac, "yawFrac")
    }

    public func encodeBody(into writer: inout WireWriter) {
        writer.enumeration(refMode)
        writer.bool(flatTrim)
        writer.bool(progressive)
        writer.f32(rollFrac)
        writer.f32(pitchFrac)
        writer.f32(gazFrac)
        writer.f32(yawFrac)
    }

    public init(sequence: UInt32, timestampUs: Int64, body: inout WireReader) throws(WireError) {
        self.init(
            sequence: sequence, timestampUs: timestampUs, refMode: try body.enumeration(RefMode.self, "refMode"),
            flatTrim: try body.bool("flatTrim"), progressive: try body.bool("progressive"), rollFrac: try body.f32(),
            pitchFrac: try body.f32(), gazFrac: try body.f32(), yawFrac: try body.f32())
    }

    public func writeJSONFields(into object: inout JSONObjectWriter) {
        object.add("ref_mode", refMode.jsonName)
        object.add("flat_trim", flatTrim)
        object.add("progressive", progressive)
        object.add("roll_frac", rollFrac)
        object.add("pitch_frac", pitchFrac)
        object.add("gaz_frac", gazFrac)
        object.add("yaw_frac", yawFrac)
    }
}
