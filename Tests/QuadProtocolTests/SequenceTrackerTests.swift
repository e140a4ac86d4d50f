import Testing
@testable import QuadProtocol

@Suite struct SequenceTrackerTests {
    static let cases: [(UInt32, UInt32, SequenceClass)] = [
        (1, 2, .inOrder),
        (41, 42, .inOrder),
        (.max, 1, .inOrder),                 // the counter skips 0 when it wraps
        (10, 13, .gap(missing: 2)),
        (.max - 1, 2, .gap(missing: 2)),     // max, 1 missing across the wrap
        (42, 42, .duplicateOrOld),
        (42, 41, .duplicateOrOld),
        (42, 17, .duplicateOrOld),
        (5000, 1, .restart),
        (5000, 16, .restart),
        (9, 1, .restart),
        (20, 3, .restart),
        (9, 8, .duplicateOrOld),
        (17, 2, .duplicateOrOld),
        (1, .max, .duplicateOrOld),
    ]

    @Test(arguments: cases)
    func classifies(last: UInt32, incoming: UInt32, expected: SequenceClass) {
        #expect(SequenceTracker.classify(last: last, incoming: incoming) == expected)
    }

    @Test func tracksEachSenderSeparatelyAndCounts() {
        var tracker = SequenceTracker()
        #expect(tracker.observe(sender: "a", sequence: 5) == .inOrder)
        #expect(tracker.observe(sender: "b", sequence: 100) == .inOrder)
        #expect(tracker.observe(sender: "a", sequence: 6) == .inOrder)
        #expect(tracker.observe(sender: "a", sequence: 9) == .gap(missing: 2))
        #expect(tracker.observe(sender: "a", sequence: 9) == .duplicateOrOld)
        #expect(tracker.observe(sender: "a", sequence: 8) == .duplicateOrOld)
        #expect(tracker.observe(sender: "a", sequence: 10) == .inOrder)
        #expect(tracker.observe(sender: "b", sequence: 1) == .restart)
        #expect(tracker.observe(sender: "b", sequence: 2) == .inOrder)
        #expect(tracker.observe(sender: "json", sequence: 0) == .unsequenced)
        #expect(tracker.missingTotal == 2)
        #expect(tracker.duplicateTotal == 2)
        #expect(tracker.restartTotal == 1)
    }

    @Test func forgetsTheLeastRecentlySeenSenderWhenFull() {
        var tracker = SequenceTracker(maxSenders: 2)
        _ = tracker.observe(sender: "a", sequence: 10)
        _ = tracker.observe(sender: "b", sequence: 10)
        _ = tracker.observe(sender: "a", sequence: 11)
        _ = tracker.observe(sender: "c", sequence: 10)   // evicts b
        #expect(tracker.observe(sender: "a", sequence: 12) == .inOrder)
        #expect(tracker.observe(sender: "b", sequence: 10) == .inOrder)  // b is new again
    }
}

@Suite struct SequenceCounterTests {
    @Test func startsAtOneAndWrapsPastZero() {
        var counter = SequenceCounter()
        #expect(counter.next() == 1)
        #expect(counter.next() == 2)
        var nearEnd = SequenceCounter(last: .max - 1)
        #expect(nearEnd.next() == .max)
        #expect(nearEnd.next() == 1)
    }
}
