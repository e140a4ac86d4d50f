import QuadProtocol

/// Where the mission is (board → ground, retained), topic `quad/<id>/mission/progress`; it carries the whole
/// `MissionProgressRecord`, so the board may persist these very bytes and restore from them.
///
///     header (5, kind 3), planChecksum u32, state u8, phase u8, currentItem u16, stayLeftMs u32, elapsedMs u32,
///     remainingDistanceM f32, remainingTimeMs u32, reached count u16 (0…100), then per reached item 10 bytes:
///     id u16, atMs u32 (mission time), arrivalErrorM f32
public struct MissionProgress: Sendable, Equatable {
    public var record: MissionProgressRecord
    /// From the drone's last position along the remaining legs, metres.
    public var remainingDistanceM: Double
    /// The remaining legs at the plan's speed, plus the holds and loiters left.
    public var remainingTime: Duration

    public init(record: MissionProgressRecord, remainingDistanceM: Double, remainingTime: Duration) {
        self.record = record
        self.remainingDistanceM = remainingDistanceM
        self.remainingTime = remainingTime
    }

    public func encoded() throws(MissionWireError) -> [UInt8] {
        try Self.check(record)
        guard remainingDistanceM.isFinite, remainingDistanceM >= 0 else {
            throw .outOfRange(field: "remainingDistanceM", got: remainingDistanceM, expected: "finite, ≥ 0")
        }
        var writer = WireWriter(capacity: 30 + 10 * record.reached.count)
        MissionWireHeader.write(.progress, into: &writer)
        writer.u32(record.planChecksum)
        writer.enumeration(record.state)
        writer.enumeration(record.phase)
        writer.u16(UInt16(record.currentItem))
        writer.u32(MissionItem.milliseconds(record.stayLeft))
        writer.u32(MissionItem.milliseconds(record.elapsed))
        writer.f32(Float(remainingDistanceM))
        writer.u32(MissionItem.milliseconds(remainingTime))
        writer.u16(UInt16(record.reached.count))
        for reached in record.reached {
            writer.u16(UInt16(reached.id))
            writer.u32(MissionItem.milliseconds(reached.at))
            writer.f32(Float(reached.arrivalErrorM))
        }
        return writer.bytes
    }

    public init(decoding payload: [UInt8]) throws(MissionWireError) {
        var reader = try MissionWireHeader.reader(payload, expecting: .progress)
        let checksum = try reader.u32()
        let state = try reader.enumeration(MissionState.self, "state")
        let phase = try reader.enumeration(MissionPhase.self, "phase")
        let current = Int(try reader.u16())
        let stayLeft = Duration.milliseconds(Int64(try reader.u32()))
        let elapsed = Duration.milliseconds(Int64(try reader.u32()))
        remainingDistanceM = Double(try reader.f32("remainingDistanceM"))
        remainingTime = .milliseconds(Int64(try reader.u32()))
        let count = Int(try reader.u16())
        guard count <= MissionPlan.maxItems else {
            throw .outOfRange(field: "reached count", got: Double(count), expected: "0…\(MissionPlan.maxItems)")
        }
        var reached: [ReachedItem] = []
        for index in 0..<count {
            reached.append(ReachedItem(id: Int(try reader.u16()), at: .milliseconds(Int64(try reader.u32())),
                                       arrivalErrorM: Double(try reader.f32("reached[\(index)].arrivalErrorM"))))
        }
        try reader.finish()
        record = MissionProgressRecord(planChecksum: checksum, state: state, phase: phase, currentItem: current,
                                       stayLeft: stayLeft, elapsed: elapsed, reached: reached)
        guard remainingDistanceM >= 0 else {
            throw .outOfRange(field: "remainingDistanceM", got: remainingDistanceM, expected: "finite, ≥ 0")
        }
        try Self.check(record)
    }

    /// Ids within the board's item count, each reached at most once, errors finite and ≥ 0.
    static func check(_ record: MissionProgressRecord) throws(MissionWireError) {
        let ids = 0..<MissionPlan.maxItems
        guard ids.contains(record.currentItem) else {
            throw .outOfRange(field: "currentItem", got: Double(record.currentItem),
                              expected: "0…\(ids.upperBound - 1)")
        }
        guard record.reached.count <= MissionPlan.maxItems else {
            throw .outOfRange(field: "reached count", got: Double(record.reached.count),
                              expected: "0…\(MissionPlan.maxItems)")
        }
        var seen: Set<Int> = []
        for (index, reached) in record.reached.enumerated() {
            guard ids.contains(reached.id), seen.insert(reached.id).inserted else {
                throw .outOfRange(field: "reached[\(index)].id", got: Double(reached.id), expected: "a new id 0…99")
            }
            guard reached.arrivalErrorM.isFinite, reached.arrivalErrorM >= 0 else {
                throw .outOfRange(field: "reached[\(index)].arrivalErrorM", got: reached.arrivalErrorM,
                                  expected: "finite, ≥ 0")
            }
        }
    }
}
