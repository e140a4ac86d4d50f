/// Body: senderId str8, action u8, controllerRunId u32 (1.2).
extension ControlClaim {
    public func validate() throws(WireError) {
        try WireCheck.string(senderId, "senderId", bytes: WireCheck.senderIdBytes)
    }

    public func encodeBody(into writer: inout WireWriter) {
        writer.string(senderId)
        writer.enumeration(action)
        writer.u32(controllerRunId)
    }

    public init(sequence: UInt32, timestampUs: Int64, body: inout WireReader) throws(WireError) {
        self.init(senderId: try body.string("senderId"), sequence: sequence, timestampUs: timestampUs,
                  action: try body.enumeration(Action.self, "action"), controllerRunId: try body.runId())
    }

    public func writeJSONFields(into object: inout JSONObjectWriter) {
        object.add("sender_id", senderId)
        object.add("action", action.jsonName)
        object.add("controller_run_id", controllerRunId)
    }
}
