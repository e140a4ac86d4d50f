import Navigation
import QuadProtocol
import Testing
@testable import GroundStation

@Suite struct FollowStateMachineTests {
    let t0: Int64 = 1_714_564_800_000_000
    let s: Int64 = 1_000_000

    func machine(checkFixTime: Bool = true) -> FollowStateMachine {
        FollowStateMachine(configuration: .init(senderId: "laptop", publishIntervalUs: s, maxFixAgeS: 3,
                                                checkFixTime: checkFixTime, maxHorizontalErrorM: 50, targetTTLS: 5))
    }

    func fix(_ lat: Double, _ lon: Double, at timeUs: Int64, ephM: Double? = 5) -> GPSFix {
        GPSFix(dimension: .threeD, latitudeDeg: lat, longitudeDeg: lon, ephM: ephM, timeUs: timeUs)
    }

    func targets(_ actions: [FollowStateMachine.Action]) -> [Target] {
        actions.compactMap { if case .publishTarget(let t) = $0 { t } else { nil } }
    }

    @Test func reportsNoFixUntilTheFirstFixThenPublishes() {
        var m = machine()
        #expect(m.tick(nowUs: t0) == [.reportNoFix(reason: .noFixYet, lastTarget: nil)])
        #expect(m.tick(nowUs: t0 + s).isEmpty)
        let actions = m.fix(fix(52.5163, 13.3777, at: t0 + s), nowUs: t0 + s)
        #expect(actions == [
            .reportFixAcquired(GeoPoint(latitudeDeg: 52.5163, longitudeDeg: 13.3777)),
            .publishTarget(Target(senderId: "laptop", sequence: 1, timestampUs: t0 + s, latitudeDeg: 52.5163,
                                  longitudeDeg: 13.3777, ttlS: 5)),
        ])
    }

    @Test func publishesTheLatestFixOncePerInterval() {
        var m = machine()
        _ = m.fix(fix(52.0, 13.0, at: t0), nowUs: t0)
        #expect(targets(m.fix(fix(52.1, 13.1, at: t0 + s / 2), nowUs: t0 + s / 2)).isEmpty)
        #expect(m.tick(nowUs: t0 + s / 2 + 1).isEmpty)
        let published = targets(m.tick(nowUs: t0 + s))
        #expect(published.map(\.latitudeDeg) == [52.1])
        #expect(published.map(\.sequence) == [2])
    }

    @Test func noFixPublishesNothingAndKeepsTheLastTarget() {
        var m = machine()
        _ = m.fix(fix(52.0, 13.0, at: t0), nowUs: t0)
        let lost = m.noFix(.mode(1), nowUs: t0 + s)
        #expect(lost == [.reportNoFix(reason: .gpsd(.mode(1)), lastTarget: GeoPoint(latitudeDeg: 52, longitudeDeg: 13))])
        for k in 2...6 { #expect(m.tick(nowUs: t0 + Int64(k) * s).isEmpty) }
        #expect(m.noFix(.mode(1), nowUs: t0 + 7 * s).isEmpty)  // reported once per outage
        let back = m.fix(fix(52.2, 13.2, at: t0 + 8 * s), nowUs: t0 + 8 * s)
        #expect(back.first == .reportFixAcquired(GeoPoint(latitudeDeg: 52.2, longitudeDeg: 13.2)))
        #expect(targets(back).map(\.latitudeDeg) == [52.2])
    }

    @Test func fixNotRenewedBecomesStale() {
        var m = machine(checkFixTime: false)
        _ = m.fix(fix(52.0, 13.0, at: 0), nowUs: t0)
        #expect(targets(m.tick(nowUs: t0 + 3 * s)).count == 1)
        #expect(m.tick(nowUs: t0 + 3 * s + 1) == [.reportNoFix(reason: .stale, lastTarget: GeoPoint(latitudeDeg: 52, longitudeDeg: 13))])
        #expect(m.tick(nowUs: t0 + 10 * s).isEmpty)
    }

    @Test func fixOlderThanTheLimitByItsOwnTimeIsNeverPublished() {
        var m = machine()
        let actions = m.fix(fix(52.0, 13.0, at: t0 - 60 * s), nowUs: t0)
        #expect(actions == [.reportNoFix(reason: .stale, lastTarget: nil)])
    }

    @Test func replayedTimestampsAreAcceptedWhenFixTimeCheckIsOff() {
        var m = machine(checkFixTime: false)
        #expect(targets(m.fix(fix(52.0, 13.0, at: t0 - 3600 * s), nowUs: t0)).count == 1)
    }

    @Test func inaccurateFixIsNotUsedAndDoesNotRevivePreviousFix() {
        var m = machine()
        _ = m.fix(fix(52.0, 13.0, at: t0), nowUs: t0)
        let bad = m.fix(fix(52.5, 13.5, at: t0 + s / 2, ephM: 80), nowUs: t0 + s / 2)
        #expect(bad == [.reportNoFix(reason: .inaccurate(horizontalErrorM: 80), lastTarget: GeoPoint(latitudeDeg: 52, longitudeDeg: 13))])
        #expect(m.tick(nowUs: t0 + 2 * s).isEmpty)
    }

    @Test func clockGoingBackwardsStillPublishes() {
        var m = machine(checkFixTime: false)
        _ = m.fix(fix(52.0, 13.0, at: 0), nowUs: t0)
        #expect(targets(m.fix(fix(52.1, 13.0, at: 0), nowUs: t0 - 10 * s)).count == 1)
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
                    actions = m.fix(f, nowUs: now)
                case .noFix(let reason):
                    now += s
                    actions = m.noFix(reason, nowUs: now)
                default: actions = []
                }
                published += targets(actions)
                noFixReports += actions.filter { if case .reportNoFix = $0 { true } else { false } }.count
            }
        }
        #expect(noFixReports == 1)
        #expect(!published.isEmpty)
        #expect(published.allSatisfy { abs($0.latitudeDeg - 52.5163) < 0.001 && abs($0.longitudeDeg - 13.3777) < 0.001 })
        #expect(published.map(\.sequence) == Array(1...UInt32(published.count)))
    }
}
