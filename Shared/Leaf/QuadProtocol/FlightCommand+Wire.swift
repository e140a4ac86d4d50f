/// Body: refMode u8, flatTrim u8, progressive u8, rollFrac f32, pitchFrac f32, gazFrac f32, yawFrac f32; appended
/// in format 1.3: takeoffId u32.
extension FlightCommand {
    /// The format minor that appended the takeoff id: older payloads end before it (and read as no takeoff).
    public static let takeoffIdIntroducedInMinor: UInt8 = 3

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
        writer.u32(takeoffId)
    }

    public init(sequence: UInt32, timestampUs: Int64, body: inout WireReader) throws(WireError) {
        self.init(
            sequence: sequence, timestampUs: timestampUs, refMode: try body.enumeration(RefMode.self, "refMode"),
            flatTrim: try body.bool("flatTrim"), progressive: try body.bool("progressive"), rollFrac: try body.f32(),
            pitchFrac: try body.f32(), gazFrac: try body.f32(), yawFrac: try body.f32())
        // A 1.0–1.2 sender knows no takeoff id: its body ends here, and it never asks for a takeoff.
        guard body.minor >= Self.takeoffIdIntroducedInMinor else { return }
        takeoffId = try body.u32()
    }

    public func writeJSONFields(into object: inout JSONObjectWriter) {
        object.add("ref_mode", refMode.jsonName)
        object.add("flat_trim", flatTrim)
        object.add("progressive", progressive)
        object.add("roll_frac", rollFrac)
        object.add("pitch_frac", pitchFrac)
        object.add("gaz_frac", gazFrac)
        object.add("yaw_frac", yawFrac)
        object.add("takeoff_id", takeoffId)
    }
}
