/// The drone's AT sequence rule: accept a command only if its number is greater than the last accepted one,
/// except 1, which restarts the count. After a reset (start, lost link) the last accepted number is 0, so a
/// client that opens with 0 (node-ar-drone) has that first command dropped and is in sync from 1 on.
public struct ATSequenceFilter: Sendable, Equatable {
    public private(set) var lastAccepted: UInt32 = 0

    public init() {}

    public mutating func accept(_ sequence: UInt32) -> Bool {
        guard sequence == 1 || sequence > lastAccepted else { return false }
        lastAccepted = sequence
        return true
    }

    public mutating func reset() {
        lastAccepted = 0
    }
}
