import Clocks
import GPSD
import Navigation
import QuadProtocol
import Testing
@testable import GroundStation

@Suite struct FollowStateMachineTests {
    let t0: Int64 = 1_714_564_800_000_000
    let s: Int64 = 1_000_000

    func machine(checkFixTime: Bool = true) -> FollowStateMachine {
        FollowStateMachine(configuration: .init(senderId: "laptop", publishInterval: .seconds(1), maxFixAgeS: 3,
                                                checkFixTime: checkFixTime, maxHorizontalErrorM: 50, targetTTLS: 5))
    }

    func fix(_ lat: Double, _ lon: Double, at timeUs: Int64, ephM: Double? = 5) -> GPSFix {
        GPSFix(dimension: .threeD, latitudeDeg: lat, longitudeDeg: lon, ephM: ephM, stamp: WallInstant(us: timeUs))
    }

    func targets(_ actions: [FollowStateMachine.Action]) -> [Target] {
        actions.compactMap { if case .publishTarget(let t) = $0 { t } else { nil } }
    }

    @Test func reportsNoFixUntilTheFirstFixThenPublishes() {
        var m = machine()
        #expect(m.tick(atUs: t0) == [.reportNoFix(reason: .noFixYet, lastTarget: nil)])
        #expect(m.tick(atUs: t0 + s).isEmpty)
        let actions = m.fix(fix(52.5163, 13.3777, at: t0 + s), atUs: t0 + s)
        #expect(actions == [
            .reportFixAcquired(GeoPoint(latitudeDeg: 52.5163, longitudeDeg: 13.3777)),
            .publishTarget(Target(senderId: "laptop", sequence: 1, timestampUs: t0 + s, latitudeDeg: 52.5163,
                                  longitudeDeg: 13.3777, ttlS: 5)),
        ])
    }

    @Test func publishesTheLatestFixOncePerInterval() {
        var m = machine()
        _ = m.fix(fix(52.0, 13.0, at: t0), atUs: t0)
        #expect(targets(m.fix(fix(52.1, 13.1, at: t0 + s / 2), atUs: t0 + s / 2)).isEmpty)
        #expect(m.tick(atUs: t0 + s / 2 + 1).isEmpty)
        let published = targets(m.tick(atUs: t0 + s))
        #expect(published.map(\.latitudeDeg) == [52.1])
        #expect(published.map(\.sequence) == [2])
    }

    @Test func noFixPublishesNothingAndKeepsTheLastTarget() {
        var m = machine()
        _ = m.fix(fix(52.0, 13.0, at: t0), atUs: t0)
        let lost = m.noFix(.mode(1), atUs: t0 + s)
        #expect(lost == [.reportNoFix(reason: .gpsd(.mode(1)), lastTarget: GeoPoint(latitudeDeg: 52,
            longitudeDeg: 13))])
        for k in 2...6 { #expect(m.tick(atUs: t0 + Int64(k) * s).isEmpty) }
        #expect(m.noFix(.mode(1), atUs: t0 + 7 * s).isEmpty)  // reported once per outage
        let back = m.fix(fix(52.2, 13.2, at: t0 + 8 * s), atUs: t0 + 8 * s)
        #expect(back.first == .reportFixAcquired(GeoPoint(latitudeDeg: 52.2, longitudeDeg: 13.2)))
        #expect(targets(back).map(\.latitudeDeg) == [52.2])
    }

    @Test func fixNotRenewedBecomesStale() {
        var m = machine(checkFixTime: false)
        _ = m.fix(fix(52.0, 13.0, at: 0), atUs: t0)
        #expect(targets(m.tick(atUs: t0 + 3 * s)).count == 1)
        #expect(m.tick(atUs: t0 + 3 * s + 1) == [.reportNoFix(reason: .stale,
            lastTarget: GeoPoint(latitudeDeg: 52, longitudeDeg: 13))])
        #expect(m.tick(atUs: t0 + 10 * s).isEmpty)
    }

    @Test func fixOlderThanTheLimitByItsOwnTimeIsNeverPublished() {
        var m = machine()
        let actions = m.fix(fix(52.0, 13.0, at: t0 - 60 * s), atUs: t0)
        #expect(actions == [.reportStaleFix(.offClock(ageS: 60), sending: false, lastTarget: nil)])
    }

    func machine(acceptStale: Bool) -> FollowStateMachine {
        FollowStateMachine(configuration: .init(senderId: "laptop", publishInterval: .seconds(1), maxFixAgeS: 3,
                                                acceptStaleFix: acceptStale, maxHorizontalErrorM: 50, targetTTLS: 5))
    }

    /// "waiting for the first fix" came first, then an 842 s old fix: that must be said, not swallowed as no-fix.
    @Test func staleFixAfterWaitingIsReportedAsStaleNotAsNoFix() {
        var m = machine()
        #expect(m.tick(atUs: t0) == [.reportNoFix(reason: .noFixYet, lastTarget: nil)])
        let actions = m.fix(fix(52.0, 13.0, at: t0 + s - 842 * s), atUs: t0 + s)
        #expect(actions == [.reportStaleFix(.offClock(ageS: 842), sending: false, lastTarget: nil)])
        // Once per episode, and never published.
        for k in 2...5 {
            let now = t0 + Int64(k) * s
            #expect(m.fix(fix(52.0, 13.0, at: now - 842 * s), atUs: now).isEmpty)
        }
    }

    @Test func fixFromTheFutureIsStaleToo() {
        var m = machine()
        #expect(m.fix(fix(52.0, 13.0, at: t0 + 10 * s), atUs: t0)
            == [.reportStaleFix(.offClock(ageS: -10), sending: false, lastTarget: nil)])
    }

    @Test func staleFixAfterGoodOnesKeepsTheLastTarget() {
        var m = machine()
        _ = m.fix(fix(52.0, 13.0, at: t0), atUs: t0)
        let actions = m.fix(fix(52.1, 13.0, at: t0 + s - 100 * s), atUs: t0 + s)
        #expect(actions == [.reportStaleFix(.offClock(ageS: 100), sending: false,
                                            lastTarget: GeoPoint(latitudeDeg: 52, longitudeDeg: 13))])
        // Good time again: acquired, published.
        let back = m.fix(fix(52.2, 13.0, at: t0 + 2 * s), atUs: t0 + 2 * s)
        #expect(back.first == .reportFixAcquired(GeoPoint(latitudeDeg: 52.2, longitudeDeg: 13)))
        #expect(targets(back).map(\.latitudeDeg) == [52.2])
    }

    @Test func acceptStaleSendsItAndSaysSoOnce() {
        var m = machine(acceptStale: true)
        let first = m.fix(fix(52.0, 13.0, at: t0 - 842 * s), atUs: t0)
        #expect(first.first == .reportStaleFix(.offClock(ageS: 842), sending: true, lastTarget: nil))
        #expect(targets(first).map(\.latitudeDeg) == [52.0])
        let second = m.fix(fix(52.1, 13.0, at: t0 + s - 842 * s), atUs: t0 + s)
        #expect(second == targets(second).map { .publishTarget($0) })
        #expect(targets(second).map(\.latitudeDeg) == [52.1])
    }

    /// A fix whose time jumps against the previous one by more than the time between them is refused even when
    /// each is within the tolerance of the laptop's clock (2 s behind, then 2 s ahead, 1 s apart: a 4 s jump).
    @Test func fixTimeJumpingFromThePreviousFixIsReported() {
        var m = machine()
        #expect(targets(m.fix(fix(52.0, 13.0, at: t0 - 2 * s), atUs: t0)).count == 1)
        let jumped = m.fix(fix(52.1, 13.0, at: t0 + 3 * s), atUs: t0 + s)
        #expect(jumped == [.reportStaleFix(.jumped(jumpS: 4), sending: false,
                                           lastTarget: GeoPoint(latitudeDeg: 52, longitudeDeg: 13))])
        // The next fix, consistent with the jumped one and with the clock, is used again.
        let next = m.fix(fix(52.2, 13.0, at: t0 + 4 * s), atUs: t0 + 2 * s)
        #expect(targets(next).map(\.latitudeDeg) == [52.2])
    }

    @Test func replayedTimestampsAreAcceptedWhenFixTimeCheckIsOff() {
        var m = machine(checkFixTime: false)
        #expect(targets(m.fix(fix(52.0, 13.0, at: t0 - 3600 * s), atUs: t0)).count == 1)
    }

    @Test func inaccurateFixIsNotUsedAndDoesNotRevivePreviousFix() {
        var m = machine()
        _ = m.fix(fix(52.0, 13.0, at: t0), atUs: t0)
        let bad = m.fix(fix(52.5, 13.5, at: t0 + s / 2, ephM: 80), atUs: t0 + s / 2)
        #expect(bad == [.reportNoFix(reason: .inaccurate(horizontalErrorM: 80),
            lastTarget: GeoPoint(latitudeDeg: 52, longitudeDeg: 13))])
        #expect(m.tick(atUs: t0 + 2 * s).isEmpty)
    }

    @Test func clockGoingBackwardsStillPublishes() {
        var m = machine(checkFixTime: false)
        _ = m.fix(fix(52.0, 13.0, at: 0), atUs: t0)
        #expect(targets(m.fix(fix(52.1, 13.0, at: 0), atUs: t0 - 10 * s)).count == 1)
    }

    @Test func walkReplayPublishesOnlyGoodPositions() throws {
        // The real gpsd session: 1 Hz, a 5 s outage. Timestamps are from 2024, so the replay mode is used.
        var stream = GPSDStream()
        var m = machine(checkFixTime: false)
        var now = t0
        var published: [Target] = []
        var noFixReports = 0
        for line in try Fixture.lines("gpsd-walk.jsonl") {
            for event in stream.receive(Array((line + "\n").utf8)) {
                let actions: [FollowStateMachine.Action]
                switch event {
                case .fix(let f):
                    now += s / 2  // a TPV about every half second on average in this log
                    actions = m.fix(f, atUs: now)
                case .noFix(let reason):
                    now += s
                    actions = m.noFix(reason, atUs: now)
                default: actions = []
                }
                published += targets(actions)
                noFixReports += actions.filter { if case .reportNoFix = $0 { true } else { false } }.count
            }
        }
        #expect(noFixReports == 1)
        #expect(!published.isEmpty)
        #expect(
            published.allSatisfy { abs($0.latitudeDeg - 52.5163) < 0.001 && abs($0.longitudeDeg - 13.3777) < 0.001 })
        #expect(published.map(\.sequence) == Array(1...UInt32(published.count)))
    }
}

/// One number for both clocks, as before the split: the receipt (monotonic) and the wall reading coincide here.
extension FollowStateMachine {
    mutating func fix(_ fix: GPSFix, atUs us: Int64) -> [Action] {
        self.fix(fix, now: .init(us: us), wallClock: .init(us: us))
    }

    mutating func noFix(_ reason: GPSFixStatus.NoFixReason, atUs us: Int64) -> [Action] {
        noFix(reason, now: .init(us: us))
    }

    mutating func tick(atUs us: Int64) -> [Action] { tick(now: .init(us: us), wallClock: .init(us: us)) }
}
