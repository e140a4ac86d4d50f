/// Body: senderId str8, kind u8.
extension Command {
    public func validate() throws(WireError) {
        try WireCheck.string(senderId, "senderId", bytes: WireCheck.senderIdBytes)
    }

    public func encodeBody(into writer: inout WireWriter) {
        writer.string(senderId)
        writer.enumeration(kind)
    }

    public init(sequence: UInt32, timestampUs: Int64, body: inout WireReader) throws(WireError) {
        self.init(senderId: try body.string("senderId"), sequence: sequence, timestampUs: timestampUs,
                  kind: try body.enumeration(Kind.self, "kind"))
    }

    public func writeJSONFields(into object: inout JSONObjectWriter) {
        object.add("sender_id", senderId)
        object.add("kind", kind.word)
    }
}
