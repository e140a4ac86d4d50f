/// Body: presence u8 (bit 0 accepted, bit 1 uploadRefusal, bit 2 targetRefusal), checksum u32, zoneCount u16,
/// refusedChecksum u32, refusal str8, targetLatitudeDeg f64, targetLongitudeDeg f64, violation u8, zoneName str8.
/// An absent group keeps its slots (zeros, empty strings). PROTOCOL.md "AirspaceStatus".
extension AirspaceStatus {
    public func validate() throws(WireError) {
        if let accepted, !(0...AirspaceDefinition.maxZones).contains(accepted.zoneCount) {
            throw .outOfRange(field: "zoneCount", expected: "[0, \(AirspaceDefinition.maxZones)]",
                              got: Double(accepted.zoneCount))
        }
        if let uploadRefusal { try WireCheck.string(uploadRefusal.reason, "refusal", bytes: Self.reasonBytes) }
        if let targetRefusal {
            try WireCheck.latitude(targetRefusal.latitudeDeg, "targetLatitudeDeg")
            try WireCheck.longitude(targetRefusal.longitudeDeg, "targetLongitudeDeg")
            try WireCheck.string(targetRefusal.zoneName, "zoneName", bytes: 0...64)
        }
    }

    public func encodeBody(into writer: inout WireWriter) {
        writer.presence([accepted != nil, uploadRefusal != nil, targetRefusal != nil])
        writer.u32(accepted?.checksum ?? 0)
        writer.u16(UInt16(clamping: accepted?.zoneCount ?? 0))
        writer.u32(uploadRefusal?.checksum ?? 0)
        writer.string(uploadRefusal?.reason ?? "")
        writer.f64(targetRefusal?.latitudeDeg)
        writer.f64(targetRefusal?.longitudeDeg)
        writer.u8(targetRefusal?.violation.rawValue ?? 0)
        writer.string(targetRefusal?.zoneName ?? "")
    }

    public init(sequence: UInt32, timestampUs: Int64, body: inout WireReader) throws(WireError) {
        let present = try body.presence(count: 3)
        let checksum = try body.u32()
        let zoneCount = Int(try body.u16())
        let refusedChecksum = try body.u32()
        let refusal = try body.string("refusal")
        let latitudeDeg = try body.f64()
        let longitudeDeg = try body.f64()
        let violation = try body.enumeration(Violation.self, "violation", ifPresent: present[2])
        let zoneName = try body.string("zoneName")
        self.init(
            sequence: sequence, timestampUs: timestampUs,
            accepted: present[0] ? Accepted(checksum: checksum, zoneCount: zoneCount) : nil,
            uploadRefusal: present[1] ? UploadRefusal(checksum: refusedChecksum, reason: refusal) : nil,
            targetRefusal: violation.map { TargetRefusal(latitudeDeg: latitudeDeg, longitudeDeg: longitudeDeg,
                                                         violation: $0, zoneName: zoneName) })
    }

    public func writeJSONFields(into object: inout JSONObjectWriter) {
        object.addOptional("checksum", accepted?.checksum)
        object.addOptional("zone_count", accepted?.zoneCount)
        object.addOptional("refused_checksum", uploadRefusal?.checksum)
        object.addOptional("refusal", uploadRefusal?.reason)
        object.add("target_latitude_deg", targetRefusal?.latitudeDeg)
        object.add("target_longitude_deg", targetRefusal?.longitudeDeg)
        object.addOptional("violation", targetRefusal.map { String(describing: $0.violation) })
        object.addOptional("zone_name", targetRefusal?.zoneName)
    }
}
