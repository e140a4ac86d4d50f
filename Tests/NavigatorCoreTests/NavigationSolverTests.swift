import Clocks
import Navigation
import QuadProtocol
import Testing
@testable import NavigatorCore

@Suite struct NavigationSolverTests {
    static let drone = GeoPoint(latitudeDeg: 52.5, longitudeDeg: 13.4)

    /// Absolute difference of two directions, degrees, in [0, 180].
    static func angleErrorDeg(_ a: Double, _ b: Double) -> Double { abs(Geodesy.wrapDeg180(a - b)) }

    static func target(_ point: GeoPoint, sequence: UInt32 = 7) -> Target {
        Target(senderId: "ground", sequence: sequence, timestampUs: 123, latitudeDeg: point.latitudeDeg,
               longitudeDeg: point.longitudeDeg)
    }

    /// A solver with all three inputs, target 100 m from the drone at `bearingDeg`.
    static func ready(bearingDeg: Double, headingDeg: Double, mountOffsetDeg: Double = 0)
        -> (NavigationSolver, NavigationSolution?) {
        var solver = NavigationSolver(mountOffsetDeg: mountOffsetDeg)
        let goal = Geodesy.destination(from: drone, bearingDeg: bearingDeg, distanceM: 100)
        _ = solver.updatePosition(drone, at: .init(us: 1_000_000))
        _ = solver.updateHeading(headingDeg, at: .init(us: 1_000_000))
        let solution = solver.updateTarget(target(goal), receivedAt: .init(us: 1_000_000))
        return (solver, solution)
    }

    @Test func nilUntilPositionHeadingAndTargetAreKnown() {
        var solver = NavigationSolver()
        #expect(solver.updateTarget(Self.target(Self.drone), receivedAt: .init(us: 0)) == nil)
        #expect(solver.updateHeading(10, at: .init(us: 0)) == nil)
        #expect(solver.updatePosition(Self.drone, at: .init(us: 0)) != nil)
    }

    @Test(arguments: [
        // (bearing to target, heading, mount offset, expected difference)
        (90.0, 0.0, 0.0, 90.0),      // target east, facing north: turn right
        (270, 0, 0, -90),            // target west: turn left
        (10, 350, 0, 20),            // across north, clockwise
        (350, 10, 0, -20),           // across north, counter-clockwise
        (180, 0, 0, -180),           // straight behind: wrapDeg180 gives −180
        (90, 0, 90, 0),              // objc.io: phone taped at 90°
        (45, 300, -30, 135),
    ])
    func directionDifference(bearing: Double, heading: Double, mount: Double, expected: Double) throws {
        let (_, solution) = Self.ready(bearingDeg: bearing, headingDeg: heading, mountOffsetDeg: mount)
        let s = try #require(solution)
        #expect(Self.angleErrorDeg(s.directionDifferenceDeg, expected) < 1e-6)
        #expect(s.directionDifferenceDeg >= -180 && s.directionDifferenceDeg < 180)
        #expect(abs(s.distanceM - 100) < 1e-6)
        #expect(Self.angleErrorDeg(s.bearingDeg, bearing) < 1e-6)
    }

    @Test func fillsTheSolutionFromTheInputs() throws {
        var solver = NavigationSolver(mountOffsetDeg: 0)
        let goal = GeoPoint(latitudeDeg: 52.51, longitudeDeg: 13.41)
        _ = solver.updatePosition(Self.drone, at: .init(us: 1_000_000))
        _ = solver.updateTarget(Self.target(goal, sequence: 42), receivedAt: .init(us: 1_500_000))
        let solution = solver.updateHeading(-10, at: .init(us: 3_250_999))
        let s = try #require(solution)
        let expected = Geodesy.inverse(from: Self.drone, to: goal)
        #expect(s.sequence == 1)
        #expect(solver.solvedAt == MonotonicInstant(us: 3_250_999))
        #expect(s.timestampUs == 0, "the publisher stamps it with wall time")
        #expect(s.targetSequence == 42)
        #expect(s.targetLatitudeDeg == 52.51 && s.targetLongitudeDeg == 13.41)
        #expect(s.droneLatitudeDeg == 52.5 && s.droneLongitudeDeg == 13.4)
        #expect(s.distanceM == expected.distanceM)
        #expect(s.bearingDeg == expected.initialBearingDeg)
        #expect(s.headingDeg == 350)
        #expect(s.positionAgeMs == 2250)
        #expect(s.targetAgeMs == 1750)
        #expect(s.headingAgeMs == 0)
    }

    @Test func sequenceCountsEverySolutionFromOne() {
        var (solver, first) = Self.ready(bearingDeg: 0, headingDeg: 0)
        #expect(first?.sequence == 1)
        #expect(solver.updateHeading(5, at: .init(us: 2_000_000))?.sequence == 2)
        #expect(solver.updatePosition(Self.drone, at: .init(us: 2_000_001))?.sequence == 3)
        // A rejected input publishes nothing and does not consume a number.
        #expect(solver.updateHeading(.nan, at: .init(us: 2_000_002)) == nil)
        #expect(solver.updateHeading(6, at: .init(us: 2_000_003))?.sequence == 4)
    }

    @Test(arguments: [
        GeoPoint(latitudeDeg: .nan, longitudeDeg: 0), GeoPoint(latitudeDeg: 91, longitudeDeg: 0),
        GeoPoint(latitudeDeg: 0, longitudeDeg: .infinity), GeoPoint(latitudeDeg: 0, longitudeDeg: 181),
    ])
    func rejectsInvalidPositionsAndTargetsKeepingState(_ bad: GeoPoint) {
        var (solver, _) = Self.ready(bearingDeg: 0, headingDeg: 0)
        let before = solver
        #expect(solver.updatePosition(bad, at: .init(us: 5_000_000)) == nil)
        #expect(solver.updateTarget(Self.target(bad), receivedAt: .init(us: 5_000_000)) == nil)
        #expect(solver == before)
    }

    @Test(arguments: [Double.nan, .infinity, -.infinity])
    func rejectsNonFiniteHeading(_ heading: Double) {
        var (solver, _) = Self.ready(bearingDeg: 0, headingDeg: 0)
        let before = solver
        #expect(solver.updateHeading(heading, at: .init(us: 5_000_000)) == nil)
        #expect(solver == before)
    }

    @Test func nonFiniteMountOffsetNeverPublishesNaN() {
        let (_, solution) = Self.ready(bearingDeg: 0, headingDeg: 0, mountOffsetDeg: .nan)
        #expect(solution == nil)
    }

    @Test(arguments: [
        (10_000, 0, 10),
        (0, 10_000, 0),                         // from the future: 0, not a trap
        (999, 0, 0),
        (Int64.max, Int64.min, .max),           // overflow saturates
        (Int64.min, Int64.max, 0),
        (Int64(UInt32.max) * 1000 + 5000, 0, .max),
    ] as [(Int64, Int64, UInt32)])
    func ageSaturates(now: Int64, then: Int64, expected: UInt32) {
        #expect(NavigationSolver.ageMs(now: .init(us: now), then: .init(us: then)) == expected)
    }

    @Test func outOfOrderInputKeepsNewestTimestamp() throws {
        var (solver, _) = Self.ready(bearingDeg: 0, headingDeg: 0)
        let solution = solver.updatePosition(Self.drone, at: .init(us: 400_000))
        let s = try #require(solution)
        #expect(solver.solvedAt == MonotonicInstant(us: 1_000_000))
        #expect(s.positionAgeMs == 600)
    }

    /// Issue 28 item 3: a JSON target's stamp is the receiver's wall clock (`InboundTarget.decode(receivedAt:)`
    /// takes a `WallInstant`), its age counts from the monotonic receipt (`updateTarget(receivedAt:)` takes a
    /// `MonotonicInstant`). Swapping the two does not compile; here a wall clock decades away changes no age.
    @Test func aTargetsAgeCountsFromItsMonotonicReceiptNotItsWallStamp() throws {
        let stamp = WallInstant(us: 1_700_000_000_000_000)
        let target = try InboundTarget.decode(payload: Array(#"{"lat": 52.51, "lon": 13.41}"#.utf8), receivedAt: stamp)
        #expect(target.timestampUs == stamp.us)
        var solver = NavigationSolver()
        _ = solver.updateTarget(target, receivedAt: MonotonicInstant(us: 1_000_000))
        _ = solver.updateHeading(0, at: MonotonicInstant(us: 1_100_000))
        let solved = solver.updatePosition(Self.drone, at: MonotonicInstant(us: 1_250_000))
        let solution = try #require(solved)
        #expect(solution.targetAgeMs == 250)
        #expect(solution.headingAgeMs == 150)
        #expect(solution.positionAgeMs == 0)
    }
}
