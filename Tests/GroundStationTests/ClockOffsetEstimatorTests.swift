import Clocks
import GroundStation
import Testing

@Suite("ClockOffsetEstimator")
struct ClockOffsetEstimatorTests {
    @Test("the least-delayed sample wins: offset minus the shortest one-way delay")
    func leastDelayed() {
        var estimator = ClockOffsetEstimator(capacity: 8)
        #expect(estimator.offset == nil)
        let offsetUs: Int64 = 3_600_000_000  // board 1 h ahead
        for (i, delayUs) in [Int64(4_000), 900, 25_000, 1_200].enumerated() {
            let local = Int64(1_800_000_000_000_000) + Int64(i) * 70_000
            estimator.observe(remoteStamp: .init(us: local + offsetUs - delayUs - delayUs),
                              localReceipt: .init(us: local))
        }
        #expect(estimator.offset == .microseconds(offsetUs - 1_800))
        #expect(estimator.exceedsWarning)
    }

    @Test("a board 10 min behind is negative; within a second no warning; garbage stamps are ignored")
    func signsAndGarbage() {
        var behind = ClockOffsetEstimator()
        behind.observe(remoteStamp: .init(us: 1_700_000_000_000_000 - 600_000_000),
                       localReceipt: .init(us: 1_700_000_000_000_000))
        #expect(behind.offset == .seconds(-600))
        var close = ClockOffsetEstimator()
        close.observe(remoteStamp: .init(us: 1_700_000_000_400_000), localReceipt: .init(us: 1_700_000_000_000_000))
        #expect(!close.exceedsWarning)
        #expect(ClockOffsetEstimator.exceedsWarning(.milliseconds(-1001)))
        #expect(!ClockOffsetEstimator.exceedsWarning(.seconds(-1)))
        close.observe(remoteStamp: .init(us: .min), localReceipt: .init(us: .max))
        close.observe(remoteStamp: .init(us: 0), localReceipt: .init(us: 1_700_000_000_000_000))
        #expect(close.offset == .milliseconds(400))
    }

    @Test("old samples roll out of the window")
    func window() {
        var estimator = ClockOffsetEstimator(capacity: 2)
        estimator.observe(remoteStamp: .init(us: 10_000_000), localReceipt: .init(us: 1_000))
        estimator.observe(remoteStamp: .init(us: 2_000), localReceipt: .init(us: 1_000))
        estimator.observe(remoteStamp: .init(us: 3_000), localReceipt: .init(us: 1_000))
        #expect(estimator.offset == .milliseconds(2))
    }
}

@Suite("StatusBoard: clock offset")
struct StatusBoardClockTests {
    @Test("the title line shows the board's clock offset; beyond 1 s it is a warning")
    func titleLine() {
        var board = StatusBoard(drone: .default)
        #expect(board.render(now: .init(us: 0)).hasPrefix("quadcopter drone1: status\n"))
        board.update(clockOffset: .milliseconds(200))
        #expect(board.render(now: .init(us: 0)).hasPrefix("quadcopter drone1: status   board clock +0.2 s\n"))
        board.update(clockOffset: .seconds(-600))
        #expect(board.render(now: .init(us: 0)).hasPrefix(
            "quadcopter drone1: status   CLOCK WARNING: board -600.0 s from this laptop\n"))
    }
}
