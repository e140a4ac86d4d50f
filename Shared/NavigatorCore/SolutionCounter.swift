/// Sequence numbers for published solutions: 1, 2, 3, … wrapping from UInt32.max back to 1
/// (0 is never used, so a receiver can treat it as "none").
struct SolutionCounter: Sendable, Equatable {
    private(set) var last: UInt32

    init(last: UInt32 = 0) {
        self.last = last
    }

    mutating func next() -> UInt32 {
        last = last == .max ? 1 : last + 1
        return last
    }
}
