/// Body: presence u8 (bit 0 magnetoHeadingDeg), navdataSequence u32, stateBits u32, controlState u8,
/// controlMinorState u16, batteryPercent u8, altitudeM, pitchDeg, rollDeg, yawDeg, velocityX/Y/ZMps,
/// magnetoHeadingDeg (all f32).
extension DroneState {
    public func validate() throws(WireError) {
        guard batteryPercent <= 100 else {
            throw .outOfRange(field: "batteryPercent", expected: "[0, 100]", got: Double(batteryPercent))
        }
        for (value, field) in [(altitudeM, "altitudeM"), (pitchDeg, "pitchDeg"), (rollDeg, "rollDeg"),
                               (yawDeg, "yawDeg"), (velocityXMps, "velocityXMps"), (velocityYMps, "velocityYMps"),
                               (velocityZMps, "velocityZMps")] {
            try WireCheck.finite(value, field)
        }
        try WireCheck.degrees360(magnetoHeadingDeg, "magnetoHeadingDeg")
    }

    public func encodeBody(into writer: inout WireWriter) {
        writer.presence([magnetoHeadingDeg != nil])
        writer.u32(navdataSequence)
        writer.u32(stateBits)
        writer.enumeration(controlState)
        writer.u16(controlMinorState)
        writer.u8(batteryPercent)
        for value in [altitudeM, pitchDeg, rollDeg, yawDeg, velocityXMps, velocityYMps, velocityZMps] {
            writer.f32(value)
        }
        writer.f32(magnetoHeadingDeg)
    }

    public init(sequence: UInt32, timestampUs: Int64, body: inout WireReader) throws(WireError) {
        let present = try body.presence(count: 1)
        self.init(
            sequence: sequence, timestampUs: timestampUs, navdataSequence: try body.u32(), stateBits: try body.u32(),
            controlState: try body.enumeration(ControlState.self, "controlState"), controlMinorState: try body.u16(),
            batteryPercent: try body.u8(), altitudeM: try body.f32(), pitchDeg: try body.f32(),
            rollDeg: try body.f32(), yawDeg: try body.f32(), velocityXMps: try body.f32(),
            velocityYMps: try body.f32(), velocityZMps: try body.f32(),
            magnetoHeadingDeg: try body.f32(ifPresent: present[0]))
    }

    public func writeJSONFields(into object: inout JSONObjectWriter) {
        object.add("navdata_sequence", navdataSequence)
        object.add("state_bits", stateBits)
        object.add("control_state", controlState.jsonName)
        object.add("control_minor_state", controlMinorState)
        object.add("battery_percent", batteryPercent)
        object.add("altitude_m", altitudeM)
        object.add("pitch_deg", pitchDeg)
        object.add("roll_deg", rollDeg)
        object.add("yaw_deg", yawDeg)
        object.add("velocity_x_mps", velocityXMps)
        object.add("velocity_y_mps", velocityYMps)
        object.add("velocity_z_mps", velocityZMps)
        object.add("magneto_heading_deg", magnetoHeadingDeg)
    }
}
