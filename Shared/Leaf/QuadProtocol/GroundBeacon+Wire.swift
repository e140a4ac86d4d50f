/// Body: senderId str8.
extension GroundBeacon {
    public func validate() throws(WireError) {
        try WireCheck.string(senderId, "senderId", bytes: WireCheck.senderIdBytes)
    }

    public func encodeBody(into writer: inout WireWriter) {
        writer.string(senderId)
    }

    public init(sequence: UInt32, timestampUs: Int64, body: inout WireReader) throws(WireError) {
        self.init(senderId: try body.string("senderId"), sequence: sequence, timestampUs: timestampUs)
    }

    public func writeJSONFields(into object: inout JSONObjectWriter) {
        object.add("sender_id", senderId)
    }
}
