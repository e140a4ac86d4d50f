import Clocks
import Testing

/// The two clocks: a monotonic reading never goes back; instants measure the time between two readings of the
/// same clock (a monotonic and a wall instant are different types, so subtracting one from the other does not
/// compile).
@Suite("Clocks")
struct ClocksTests {
    @Test("monotonic readings never go back, and the difference of two of them is their duration")
    func monotonicIsOrdered() {
        var previous = MonotonicClock.now()
        for _ in 0..<1000 {
            let now = MonotonicClock.now()
            #expect(now >= previous)
            #expect(now - previous >= .zero)
            previous = now
        }
    }

    @Test("instant arithmetic: advanced(by:), difference, seconds")
    func arithmetic() {
        let start = WallInstant(us: 1_700_000_000_000_000)
        let later = start.advanced(by: .milliseconds(1500))
        #expect(later.us == start.us + 1_500_000)
        #expect(later - start == .microseconds(1_500_000))
        #expect(start - later == .seconds(-1.5))
        #expect(later > start)
        #expect(MonotonicInstant(us: 2_500_000).seconds == 2.5)
    }

    @Test("Duration.us: whole microseconds, truncated toward zero, clamped to Int64")
    func durationMicroseconds() {
        #expect(Duration.milliseconds(30).us == 30_000)
        #expect(Duration.nanoseconds(1_900).us == 1)
        #expect(Duration.nanoseconds(-1_900).us == -1)
        #expect(Duration.seconds(Int64.max).us == .max)
        #expect(Duration.seconds(Int64.min).us == .min)
        #expect(Duration.microseconds(Int64.min).us == .min)
    }

    @Test("the wall clock reads microseconds since the Unix epoch (after 2020, before 2100)")
    func wallIsEpochMicroseconds() {
        #expect((1_577_836_800_000_000...4_102_444_800_000_000).contains(WallClock.nowUs()))
    }
}
