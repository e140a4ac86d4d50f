/// Body: connected u8, fallbackHover u8, reason u8, navdataPerSecond f32, checksumErrors u32,
/// malformedPackets u32, lastNavdataAgeMs u32, lastCommandAgeMs u32.
extension LinkStatus {
    public func validate() throws(WireError) {
        try WireCheck.nonNegative(navdataPerSecond, "navdataPerSecond")
    }

    public func encodeBody(into writer: inout WireWriter) {
        writer.bool(connected)
        writer.bool(fallbackHover)
        writer.enumeration(reason)
        writer.f32(navdataPerSecond)
        writer.u32(checksumErrors)
        writer.u32(malformedPackets)
        writer.u32(lastNavdataAgeMs)
        writer.u32(lastCommandAgeMs)
    }

    public init(sequence: UInt32, timestampUs: Int64, body: inout WireReader) throws(WireError) {
        self.init(
            sequence: sequence, timestampUs: timestampUs, connected: try body.bool("connected"),
            fallbackHover: try body.bool("fallbackHover"), reason: try body.enumeration(Reason.self, "reason"),
            navdataPerSecond: try body.f32(), checksumErrors: try body.u32(), malformedPackets: try body.u32(),
            lastNavdataAgeMs: try body.u32(), lastCommandAgeMs: try body.u32())
    }

    public func writeJSONFields(into object: inout JSONObjectWriter) {
        object.add("connected", connected)
        object.add("fallback_hover", fallbackHover)
        object.add("reason", reason.jsonName)
        object.add("navdata_per_second", navdataPerSecond)
        object.add("checksum_errors", checksumErrors)
        object.add("malformed_packets", malformedPackets)
        object.add("last_navdata_age_ms", lastNavdataAgeMs)
        object.add("last_command_age_ms", lastCommandAgeMs)
    }
}
