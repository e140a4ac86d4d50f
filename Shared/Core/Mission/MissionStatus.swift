import QuadProtocol

/// What the board holds and the last upload it refused (board → ground, retained), topic `quad/<id>/mission/status`:
/// the progress payload carries a held plan only, so a refusal (of a first plan, or of one while another is under
/// way) needs its own place for the ground to print it.
///
///     header (5, kind 4), sequence u32 (new with each status of a run: a ground tool tells a new answer from the
///     retained one), presence u8 (bit 0 held, bit 1 refusal), [held planChecksum u32],
///     [refusal: planChecksum u32, item u16 (0xFFFF: the plan as a whole), reason str8 (1…240 bytes UTF-8)]
public struct MissionStatus: Sendable, Equatable {
    public static let reasonBytes = 1...240
    static let noItem: UInt16 = 0xFFFF

    public struct Refusal: Sendable, Equatable {
        public var planChecksum: UInt32
        /// The index of the item that broke a rule; nil when the plan as a whole was refused.
        public var item: Int?
        public var reason: String

        public init(planChecksum: UInt32, item: Int?, reason: String) {
            self.planChecksum = planChecksum
            self.item = item
            // Cut by characters, never inside one, to the payload's bound.
            var reason = reason.isEmpty ? "refused" : reason
            while reason.utf8.count > MissionStatus.reasonBytes.upperBound { reason.removeLast() }
            self.reason = reason
        }
    }

    public var sequence: UInt32
    /// The checksum of the plan the board holds; nil: none.
    public var heldChecksum: UInt32?
    public var refusal: Refusal?

    public init(sequence: UInt32, heldChecksum: UInt32?, refusal: Refusal?) {
        self.sequence = sequence
        self.heldChecksum = heldChecksum
        self.refusal = refusal
    }

    public func encoded() -> [UInt8] {
        var writer = WireWriter(capacity: 16 + (refusal?.reason.utf8.count ?? 0))
        MissionWireHeader.write(.status, into: &writer)
        writer.u32(sequence)
        writer.u8((heldChecksum == nil ? 0 : 1) | (refusal == nil ? 0 : 2))
        if let heldChecksum { writer.u32(heldChecksum) }
        if let refusal {
            writer.u32(refusal.planChecksum)
            writer.u16(refusal.item.map { UInt16(clamping: $0) } ?? Self.noItem)
            writer.string(refusal.reason)
        }
        return writer.bytes
    }

    public init(decoding payload: [UInt8]) throws(MissionWireError) {
        var reader = try MissionWireHeader.reader(payload, expecting: .status)
        sequence = try reader.u32()
        let presence = try reader.u8()
        guard presence & ~3 == 0 else { throw .outOfRange(field: "presence", got: Double(presence), expected: "0…3") }
        heldChecksum = presence & 1 != 0 ? try reader.u32() : nil
        if presence & 2 != 0 {
            let checksum = try reader.u32()
            let item = try reader.u16()
            let count = Int(try reader.u8())
            guard Self.reasonBytes.contains(count) else { throw .stringLength(field: "reason", gotBytes: count) }
            guard let reason = String(validating: try reader.raw(count), as: UTF8.self) else {
                throw .invalidUTF8(field: "reason")
            }
            guard item == Self.noItem || Int(item) < MissionPlan.maxItems else {
                throw .outOfRange(field: "item", got: Double(item), expected: "0…\(MissionPlan.maxItems - 1)")
            }
            refusal = Refusal(planChecksum: checksum, item: item == Self.noItem ? nil : Int(item), reason: reason)
        } else {
            refusal = nil
        }
        try reader.finish()
    }
}

extension MissionPlanError {
    /// The index of the item the error names, if it names one.
    public var item: Int? {
        switch self {
        case let .unknownCommand(item, _), let .unsupportedFrame(item, _), let .complexItem(item, _),
             let .wrongId(item, _), let .duplicateId(item, _), let .notFinite(item, _),
             let .latitudeOutOfRange(item, _), let .longitudeOutOfRange(item, _), let .outOfRange(item, _, _, _),
             let .aboveCeiling(item, _, _), let .outsideFence(item, _, _), let .airspace(item, _, _),
             let .itemAfterEnd(item):
            item
        case .malformed, .empty, .tooManyItems, .planField: nil
        }
    }
}
