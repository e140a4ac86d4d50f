/// Body: senderId str8, kind u8, controllerRunId u32 (1.2).
extension Command {
    public func validate() throws(WireError) {
        try WireCheck.string(senderId, "senderId", bytes: WireCheck.senderIdBytes)
    }

    public func encodeBody(into writer: inout WireWriter) {
        writer.string(senderId)
        writer.enumeration(kind)
        writer.u32(controllerRunId)
    }

    public init(sequence: UInt32, timestampUs: Int64, body: inout WireReader) throws(WireError) {
        let senderId = try body.string("senderId")
        // Only the kinds of the payload's minor: a 1.0 sender cannot mean kind 7 (its decoder rejects it too).
        let raw = try body.u8()
        let known = Kind.allCases.filter { $0.introducedInMinor <= body.minor }
        guard let kind = known.first(where: { $0.rawValue == raw }) else {
            throw .unknownEnumValue(field: "kind", expected: known.map(\.rawValue), got: raw)
        }
        self.init(senderId: senderId, sequence: sequence, timestampUs: timestampUs, kind: kind,
                  controllerRunId: try body.runId())
    }

    public func writeJSONFields(into object: inout JSONObjectWriter) {
        object.add("sender_id", senderId)
        object.add("kind", kind.word)
        object.add("controller_run_id", controllerRunId)
    }
}
