import QuadProtocol

/// What the ground asks of the mission (ground → board), topic `quad/<id>/mission/command`.
///
///     header (5, kind 2), senderId str8 (1…64 bytes), kind u8 (1 start, 2 pause, 3 resume, 4 abort, 5 goto),
///     item u16 (goto's item; 0 otherwise), planChecksum u32 (the plan it is meant for)
///
/// The checksum addresses the command to one plan: a command queued for a plan the board no longer has (replaced
/// meanwhile) is refused, never applied to the new one.
public struct MissionCommand: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        case start, pause, resume, abort
        case goto(item: Int)
    }

    enum WireKind: UInt8, CaseIterable {
        case start = 1, pause, resume, abort, goto
    }

    public var senderId: String
    public var kind: Kind
    public var planChecksum: UInt32

    public init(senderId: String, kind: Kind, planChecksum: UInt32) {
        self.senderId = senderId
        self.kind = kind
        self.planChecksum = planChecksum
    }

    public func encoded() throws(MissionWireError) -> [UInt8] {
        try Self.checkSender(senderId)
        let (wire, item): (WireKind, Int) = switch kind {
        case .start: (.start, 0)
        case .pause: (.pause, 0)
        case .resume: (.resume, 0)
        case .abort: (.abort, 0)
        case let .goto(item): (.goto, item)
        }
        guard (0..<MissionPlan.maxItems).contains(item) else {
            throw .outOfRange(field: "item", got: Double(item), expected: "0…\(MissionPlan.maxItems - 1)")
        }
        var writer = WireWriter(capacity: 16 + senderId.utf8.count)
        MissionWireHeader.write(.command, into: &writer)
        writer.string(senderId)
        writer.enumeration(wire)
        writer.u16(UInt16(item))
        writer.u32(planChecksum)
        return writer.bytes
    }

    public init(decoding payload: [UInt8]) throws(MissionWireError) {
        var reader = try MissionWireHeader.reader(payload, expecting: .command)
        senderId = try reader.senderId()
        let wire = try reader.enumeration(WireKind.self, "kind")
        let item = Int(try reader.u16())
        planChecksum = try reader.u32()
        try reader.finish()
        guard wire == .goto ? item < MissionPlan.maxItems : item == 0 else {
            throw .outOfRange(field: "item", got: Double(item),
                              expected: wire == .goto ? "0…\(MissionPlan.maxItems - 1)" : "0 (not a goto)")
        }
        kind = switch wire {
        case .start: .start
        case .pause: .pause
        case .resume: .resume
        case .abort: .abort
        case .goto: .goto(item: item)
        }
    }

    static func checkSender(_ senderId: String) throws(MissionWireError) {
        guard (1...64).contains(senderId.utf8.count) else {
            throw .stringLength(field: "senderId", gotBytes: senderId.utf8.count)
        }
    }
}
