/// Hands out a sender's sequence numbers: 1, 2, 3, … and after UInt32.max back to 1.
/// 0 is never produced: it marks unsequenced messages (text forms).
public struct SequenceCounter: Sendable, Equatable {
    private var last: UInt32

    /// `last` is the number already used; the next call returns the one after it.
    public init(last: UInt32 = 0) { self.last = last }

    public mutating func next() -> UInt32 {
        last = last == .max ? 1 : last + 1
        return last
    }
}
