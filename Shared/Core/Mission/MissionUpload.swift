import QuadProtocol

/// A plan sent to the board (ground → board), topic `quad/<id>/mission/upload`.
///
///     header (5, kind 1), senderId str8 (1…64 bytes), the plan's canonical encoding (MissionPlan+Encoding),
///     checksum u32: CRC-32 (IEEE) of the canonical encoding
///
/// The decoder refuses a damaged plan (checksum), bytes that are not canonical, and a plan that breaks the rules
/// every board holds (`validateStructure`); the board's own limits (fence, ceiling, airspace) are its executor's.
public struct MissionUpload: Sendable, Equatable {
    public var senderId: String
    public var plan: MissionPlan

    public init(senderId: String, plan: MissionPlan) {
        self.senderId = senderId
        self.plan = plan
    }

    public func encoded() throws(MissionWireError) -> [UInt8] {
        try MissionCommand.checkSender(senderId)
        do { try plan.validateStructure() } catch { throw .plan(error) }
        let canonical = plan.canonicalBytes
        var writer = WireWriter(capacity: MissionWireHeader.byteCount + 1 + senderId.utf8.count + canonical.count + 4)
        MissionWireHeader.write(.upload, into: &writer)
        writer.string(senderId)
        writer.append(canonical)
        writer.u32(plan.checksum)
        return writer.bytes
    }

    public init(decoding payload: [UInt8]) throws(MissionWireError) {
        var reader = try MissionWireHeader.reader(payload, expecting: .upload)
        senderId = try reader.senderId()
        plan = try MissionPlan.read(from: &reader)
        let stated = try reader.u32()
        try reader.finish()
        guard stated == plan.checksum else { throw .checksumMismatch(stated: stated, computed: plan.checksum) }
        do { try plan.validateStructure() } catch { throw .plan(error) }
    }
}
