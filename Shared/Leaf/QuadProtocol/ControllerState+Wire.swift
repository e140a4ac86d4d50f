/// Body: presence u8 (bit 0 targetLatitudeDeg, bit 1 targetLongitudeDeg, bit 2 distanceToTargetM), activity u8,
/// reason str8, pilotId str8, targetLatitudeDeg f64, targetLongitudeDeg f64, distanceToTargetM f32, runId u32 (1.2),
/// targetSequence u32 (1.3).
extension ControllerState {
    /// The format minor that appended the target's sequence.
    public static let targetSequenceIntroducedInMinor: UInt8 = 3

    public func validate() throws(WireError) {
        try WireCheck.string(reason.code, "reason", bytes: WireCheck.reasonBytes)
        try WireCheck.string(pilotId, "pilotId", bytes: WireCheck.reasonBytes)
        try WireCheck.latitude(targetLatitudeDeg, "targetLatitudeDeg")
        try WireCheck.longitude(targetLongitudeDeg, "targetLongitudeDeg")
        try WireCheck.nonNegative(distanceToTargetM, "distanceToTargetM")
    }

    public func encodeBody(into writer: inout WireWriter) {
        writer.presence([targetLatitudeDeg != nil, targetLongitudeDeg != nil, distanceToTargetM != nil])
        writer.enumeration(activity)
        writer.string(reason.code)
        writer.string(pilotId)
        writer.f64(targetLatitudeDeg)
        writer.f64(targetLongitudeDeg)
        writer.f32(distanceToTargetM)
        writer.u32(runId)
        writer.u32(targetSequence)
    }

    public init(sequence: UInt32, timestampUs: Int64, body: inout WireReader) throws(WireError) {
        let present = try body.presence(count: 3)
        // Only the activities of the payload's minor: a 1.3 sender cannot mean `unknown` (its decoder rejects it).
        let raw = try body.u8()
        let known = Activity.allCases.filter { $0.introducedInMinor <= body.minor }
        guard let activity = known.first(where: { $0.rawValue == raw }) else {
            throw .unknownEnumValue(field: "activity", expected: known.map(\.rawValue), got: raw)
        }
        self.init(
            sequence: sequence, timestampUs: timestampUs, activity: activity,
            reason: Reason(code: try body.string("reason")), pilotId: try body.string("pilotId"),
            targetLatitudeDeg: try body.f64(ifPresent: present[0]),
            targetLongitudeDeg: try body.f64(ifPresent: present[1]),
            distanceToTargetM: try body.f32(ifPresent: present[2]), runId: try body.runId())
        guard body.minor >= Self.targetSequenceIntroducedInMinor else { return }
        targetSequence = try body.u32()
    }

    public func writeJSONFields(into object: inout JSONObjectWriter) {
        object.add("activity", activity.jsonName)
        object.add("reason", reason.code)
        object.add("pilot_id", pilotId)
        object.add("target_latitude_deg", targetLatitudeDeg)
        object.add("target_longitude_deg", targetLongitudeDeg)
        object.add("distance_to_target_m", distanceToTargetM)
        object.add("run_id", runId)
        object.add("target_sequence", targetSequence)
    }
}
