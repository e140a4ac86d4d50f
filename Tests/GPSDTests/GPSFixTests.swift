import Clocks
import QuadProtocol
import Testing
@testable import GPSD

@Suite struct GPSFixTests {
    let t0: Int64 = 1_714_564_800_000_000  // 2024-05-01T12:00:00Z

    func fix(timeUs: Int64?) -> GPSFix {
        GPSFix(dimension: .threeD, latitudeDeg: 52.5163, longitudeDeg: 13.3777,
               stamp: timeUs.map(WallInstant.init(us:)))
    }

    @Test(arguments: [
        (Int64(0), false), (2_000_000, false), (3_000_000, false), (3_000_001, true), (-3_000_001, true),
        (-1_000_000, false),
    ])
    func staleWhenOlderOrNewerThanTheLimit(ageUs: Int64, stale: Bool) {
        #expect(fix(timeUs: t0).isStale(wallClock: .init(us: t0 + ageUs), maxAgeS: 3) == stale)
    }

    @Test func ageIsTheWallClockMinusTheFixStamp() {
        #expect(fix(timeUs: t0).age(wallClock: .init(us: t0 + 1_500_000)) == .milliseconds(1500))
        #expect(fix(timeUs: t0).age(wallClock: .init(us: t0 - 2)) == .microseconds(-2))
        #expect(fix(timeUs: nil).age(wallClock: .init(us: t0)) == nil)
        #expect(fix(timeUs: Int64.min).age(wallClock: .init(us: Int64.max)) == nil)
    }

    @Test func undatedFixIsStale() {
        #expect(fix(timeUs: nil).isStale(wallClock: .init(us: t0), maxAgeS: 1000))
    }

    @Test func extremeClocksDoNotTrap() {
        #expect(fix(timeUs: Int64.min).isStale(wallClock: .init(us: Int64.max), maxAgeS: 3))
        #expect(fix(timeUs: t0).isStale(wallClock: .init(us: t0), maxAgeS: .nan))
    }

    @Test func horizontalErrorPrefersEph() {
        var f = fix(timeUs: t0)
        #expect(f.horizontalErrorM == nil)
        f.epxM = 3; f.epyM = 5
        #expect(f.horizontalErrorM == 5)
        f.ephM = 4
        #expect(f.horizontalErrorM == 4)
    }

    @Test func becomesAPositionFixMessage() {
        var f = fix(timeUs: t0)
        f.altitudeM = 34.1; f.trackDeg = 90; f.speedMps = 1.4; f.ephM = 17
        let p = f.positionFix(sequence: 7, stamp: .init(us: t0), satellites: 300)
        #expect(p == PositionFix(sequence: 7, timestampUs: t0, latitudeDeg: 52.5163, longitudeDeg: 13.3777,
                                 altitudeM: 34.1, headingDeg: 90, horizontalAccuracyM: 17, satellites: 255,
                                 source: .gpsd))
    }

    @Test func trackIsNoHeadingWhenStandingStill() {
        var f = fix(timeUs: t0)
        f.trackDeg = 123; f.speedMps = 0.2
        #expect(f.positionFix(sequence: 1, stamp: .init(us: t0), satellites: nil).headingDeg == nil)
    }
}
