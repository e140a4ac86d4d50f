import Clocks
import Testing

/// The two clocks: a monotonic reading never goes back; instants measure the time between two readings of the
/// same clock (a monotonic and a wall instant are different types, so `usSince` across them does not compile).
@Suite("Clocks")
struct ClocksTests {
    @Test("monotonic readings never go back, and usSince measures between two of them")
    func monotonicIsOrdered() {
        var previous = MonotonicClock.now()
        for _ in 0..<1000 {
            let now = MonotonicClock.now()
            #expect(now >= previous)
            #expect(now.usSince(previous) >= 0)
            previous = now
        }
    }

    @Test("instant arithmetic: advanced, usSince, seconds")
    func arithmetic() {
        let start = WallInstant(us: 1_700_000_000_000_000)
        let later = start.advanced(byUs: 1_500_000)
        #expect(later.usSince(start) == 1_500_000)
        #expect(start.usSince(later) == -1_500_000)
        #expect(later > start)
        #expect(MonotonicInstant(us: 2_500_000).seconds == 2.5)
    }

    @Test("the wall clock reads microseconds since the Unix epoch (after 2020, before 2100)")
    func wallIsEpochMicroseconds() {
        #expect((1_577_836_800_000_000...4_102_444_800_000_000).contains(WallClock.nowUs()))
    }
}
