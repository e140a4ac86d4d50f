/// Body: connected u8, fallbackHover u8, reason u8, navdataPerSecond f32, checksumErrors u32,
/// malformedPackets u32, lastNavdataAgeMs u32, lastCommandAgeMs u32; appended in format 1.2: presence u8
/// (bit 0 commandAck), ackCommand u8, ackResult u8, ackAgeMs u32.
extension LinkStatus {
    /// The format minor that appended the command acknowledgement: older payloads end before it.
    public static let commandAckIntroducedInMinor: UInt8 = 2

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
        // 1.2. A presence byte at the end, not the start: a minor may only append (1.0/1.1 bodies have none).
        writer.presence([commandAck != nil])
        writer.u8(commandAck?.command.rawValue ?? 0)
        writer.u8(commandAck?.result.rawValue ?? 0)
        writer.u32(commandAck?.ageMs ?? 0)
    }

    public init(sequence: UInt32, timestampUs: Int64, body: inout WireReader) throws(WireError) {
        self.init(
            sequence: sequence, timestampUs: timestampUs, connected: try body.bool("connected"),
            fallbackHover: try body.bool("fallbackHover"), reason: try body.enumeration(Reason.self, "reason"),
            navdataPerSecond: try body.f32(), checksumErrors: try body.u32(), malformedPackets: try body.u32(),
            lastNavdataAgeMs: try body.u32(), lastCommandAgeMs: try body.u32())
        // A 1.0/1.1 sender knows no acknowledgement: its body ends here (more is bodyTooLong, as before 1.2).
        guard body.minor >= Self.commandAckIntroducedInMinor else { return }
        let present = try body.presence(count: 1)
        let command = try body.enumeration(AutopilotCommand.self, "ackCommand", ifPresent: present[0])
        let result = try body.enumeration(CommandResult.self, "ackResult", ifPresent: present[0])
        let ageMs = try body.u32(ifPresent: present[0])
        if let command, let result, let ageMs {
            commandAck = CommandAck(command: command, result: result, ageMs: ageMs)
        }
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
        object.addOptional("ack_command", commandAck?.command.jsonName)
        object.addOptional("ack_result", commandAck?.result.jsonName)
        object.addOptional("ack_age_ms", commandAck?.ageMs)
    }
}
