/// Body: presence u8 (bit 0 altitudeM), senderId str8, latitudeDeg f64, longitudeDeg f64, altitudeM f32, ttlS f32,
/// controllerRunId u32 (1.2).
extension Target {
    public func validate() throws(WireError) {
        try WireCheck.string(senderId, "senderId", bytes: WireCheck.senderIdBytes)
        try WireCheck.latitude(latitudeDeg, "latitudeDeg")
        try WireCheck.longitude(longitudeDeg, "longitudeDeg")
        // Metres above ground: below the ground is a sender's bug, never an order (checked at every minor).
        try WireCheck.nonNegative(altitudeM, "altitudeM")
        try WireCheck.nonNegative(ttlS, "ttlS")
    }

    public func encodeBody(into writer: inout WireWriter) {
        writer.presence([altitudeM != nil])
        writer.string(senderId)
        writer.f64(latitudeDeg)
        writer.f64(longitudeDeg)
        writer.f32(altitudeM)
        writer.f32(ttlS)
        writer.u32(controllerRunId)
    }

    public init(sequence: UInt32, timestampUs: Int64, body: inout WireReader) throws(WireError) {
        let present = try body.presence(count: 1)
        self.init(
            senderId: try body.string("senderId"), sequence: sequence, timestampUs: timestampUs,
            latitudeDeg: try body.f64(), longitudeDeg: try body.f64(), altitudeM: try body.f32(ifPresent: present[0]),
            ttlS: try body.f32(), controllerRunId: try body.runId())
    }

    public func writeJSONFields(into object: inout JSONObjectWriter) {
        object.add("sender_id", senderId)
        object.add("latitude_deg", latitudeDeg)
        object.add("longitude_deg", longitudeDeg)
        object.add("altitude_m", altitudeM)
        object.add("ttl_s", ttlS)
        object.add("controller_run_id", controllerRunId)
    }
}
