import Airspace
import Clocks
import FlightControl
import Navigation
import QuadProtocol
import Randomness
import Testing

/// Targets behind a keep-out zone (issue 38, point 2): flown around it on the planner's path, corner by corner, and
/// arrived at only at the target; refused when no path keeps the route's clearance or none is planned yet.
@Suite struct ControllerAirspaceRouteTests {
    /// The airspace of `ControllerAirspaceTests` (a keep-out "pond" 40–60 m north, 20 m wide) with its paths built,
    /// as drone-controller builds them off its thread.
    static func hoveringWithPaths(marginM: Double = 2) throws -> ControllerHarness {
        var h = ControllerHarness()
        h.hovering()
        let actions = h.machine.airspace(ControllerAirspaceTests.definition(marginM: marginM), store: true, now: h.now)
        let request = try #require(actions.compactMap { if case .buildPathPlanner(let r) = $0 { r } else { nil } }
            .first)
        _ = h.machine.pathPlannerBuilt(PathPlanner(airspace: request.airspace), checksum: request.checksum,
                                       now: h.now)
        return h
    }

    /// A navigator's solution for the held target, computed from a fix at `drone` with the nose north.
    @discardableResult
    static func solution(_ h: inout ControllerHarness, at drone: GeoPoint) -> [ControllerAction] {
        let target = h.machine.target!
        let goal = GeoPoint(latitudeDeg: target.latitudeDeg, longitudeDeg: target.longitudeDeg)
        let inverse = Geodesy.inverse(from: drone, to: goal)
        let solution = NavigationSolution(
            sequence: h.nextSequence(), timestampUs: h.nowUs, targetSequence: target.sequence,
            targetLatitudeDeg: goal.latitudeDeg, targetLongitudeDeg: goal.longitudeDeg,
            droneLatitudeDeg: drone.latitudeDeg, droneLongitudeDeg: drone.longitudeDeg,
            distanceM: inverse.distanceM, bearingDeg: inverse.initialBearingDeg, headingDeg: 0,
            directionDifferenceDeg: Geodesy.wrapDeg180(inverse.initialBearingDeg), positionAgeMs: 0, headingAgeMs: 0,
            targetAgeMs: 0)
        return h.machine.navigation(solution, now: h.now)
    }

    /// The drone held at `point` long enough for the arrival filter to judge it (as `settle`).
    @discardableResult
    static func hold(_ h: inout ControllerHarness, at point: GeoPoint) -> [ControllerAction] {
        h.advance(ms: h.machine.configuration.arrivalWindow.us / 1000 + 1)
        var actions = h.drone(.hovering)
        actions += h.position(point)
        for index in 0..<3 {
            if index > 0 { h.advance(ms: 100) }
            // Each solution from a fix of its own (arrival counts distinct fixes).
            let fix = GeoPoint(latitudeDeg: point.latitudeDeg + Double(index) * 1e-9, longitudeDeg: point.longitudeDeg)
            actions += solution(&h, at: fix)
        }
        return actions
    }

    @Test func aTargetBehindTheZoneIsFlownAroundItCornerByCornerAndArrivedAtOnlyThere() throws {
        var h = try Self.hoveringWithPaths()
        let goal = ControllerHarness.point(northM: 100)
        let accepted = h.target(goal)
        #expect(ControllerAirspaceTests.reasons(accepted).last == .targetAroundZone)
        let route = try #require(h.machine.route)
        #expect(!route.corners.isEmpty)
        #expect(route.lengthM > route.straightM)
        // Every leg keeps the margin (the planner keeps the route's larger clearance).
        let airspace = try Airspace(ControllerAirspaceTests.definition(marginM: 2))
        let path = [ControllerHarness.home] + route.corners + [goal]
        for (a, b) in zip(path, path.dropFirst()) { #expect(airspace.zoneMetByLeg(from: a, to: b, marginM: 2) == nil) }
        // From home the steering aims at the first corner, and the distance published is the whole way left.
        Self.solution(&h, at: ControllerHarness.home)
        let distanceM = try #require(h.machine.currentState(now: h.now).distanceToTargetM)
        #expect(abs(Double(distanceM) - route.lengthM) < 0.5)
        for (index, corner) in route.corners.enumerated() {
            Self.hold(&h, at: corner)
            #expect(h.machine.activity == .flyingToTarget, "corner \(index + 1) is passed, not arrived at")
            #expect(h.machine.route?.leg == index + 2)
        }
        Self.hold(&h, at: goal)
        #expect(h.machine.activity == .arrived)
        #expect(h.machine.target != nil)
    }

    @Test func untilItsPathsAreBuiltATargetBehindTheZoneIsRefusedForItsLeg() {
        var h = ControllerHarness()
        h.hovering()
        _ = h.machine.airspace(ControllerAirspaceTests.definition(marginM: 2), store: true, now: h.now)
        let behind = h.target(ControllerHarness.point(northM: 100))
        #expect(ControllerAirspaceTests.reasons(behind).last == .targetRefusedAirspaceLeg)
        #expect(h.machine.target == nil)
    }

    @Test func aTargetBesideTheZoneIsFlownStraight() throws {
        var h = try Self.hoveringWithPaths()
        let accepted = h.target(ControllerHarness.point(northM: 100, eastM: 60))
        #expect(ControllerAirspaceTests.reasons(accepted).last == .newTarget)
        #expect(h.machine.route?.corners == [])
    }

    @Test func aTargetTooCloseBehindTheZoneForTheRoutesClearanceIsRefused() throws {
        var h = try Self.hoveringWithPaths(marginM: 2)
        // 62.5 m north: 2.5 m beyond the pond, outside its 2 m margin but inside the route's 5 m clearance.
        let behind = h.target(ControllerHarness.point(northM: 62.5))
        #expect(ControllerAirspaceTests.reasons(behind).last == .targetRefusedAirspaceLeg)
        #expect(AirspaceRecord.routeClearanceM(marginM: 2) == 5)
    }

    @Test func aReplacedAirspaceDropsThePathsOfTheOldOne() throws {
        var h = try Self.hoveringWithPaths()
        var other = ControllerAirspaceTests.definition(marginM: 3)
        other.sequence = 2
        _ = h.machine.airspace(other, store: true, now: h.now)
        // The old airspace's paths came late: not taken for the new one.
        let old = try Airspace(ControllerAirspaceTests.definition(marginM: 2))
        let late = h.machine.pathPlannerBuilt(PathPlanner(airspace: old),
                                              checksum: ControllerAirspaceTests.definition(marginM: 2).checksum,
                                              now: h.now)
        #expect(late.contains { if case .log(.debug, _) = $0 { true } else { false } })
        #expect(ControllerAirspaceTests.reasons(h.target(ControllerHarness.point(northM: 100))).last
                == .targetRefusedAirspaceLeg)
    }

    /// Property: over random keep-out squares and targets, a target is refused, or flown straight on a leg that
    /// keeps the margin, or around the zone on legs that all keep it; never through the margin.
    @Test func overRandomLayoutsNoAcceptedWayComesWithinTheMargin() throws {
        var random = SplitMix64(seed: 38)
        var around = 0
        for _ in 0..<150 {
            let marginM = Double(random.next() % 6)
            let south = 15 + Double(random.next() % 40), side = 5 + Double(random.next() % 40)
            let east = -30 + Double(random.next() % 60)
            let definition = ControllerAirspaceTests.square(marginM: marginM, north: south...(south + side),
                                                            east: east...(east + side))
            var h = ControllerHarness()
            h.hovering()
            let actions = h.machine.airspace(definition, store: true, now: h.now)
            let request = try #require(actions.compactMap {
                if case .buildPathPlanner(let r) = $0 { r } else { nil } }.first)
            _ = h.machine.pathPlannerBuilt(PathPlanner(airspace: request.airspace), checksum: request.checksum,
                                           now: h.now)
            let goal = ControllerHarness.point(northM: -50 + Double(random.next() % 200),
                                               eastM: -100 + Double(random.next() % 200))
            h.target(goal)
            guard let route = h.machine.route, h.machine.target != nil else { continue }
            if !route.corners.isEmpty { around += 1 }
            let airspace = try Airspace(definition)
            let path = [ControllerHarness.home] + route.corners + [goal]
            for (a, b) in zip(path, path.dropFirst()) {
                #expect(airspace.zoneMetByLeg(from: a, to: b, marginM: marginM) == nil)
            }
        }
        #expect(around > 10, "the layouts must exercise routes around the zone")
    }

    @Test func aReturnWhoseStraightWayHomeMeetsTheZoneGoesAroundItCornerByCorner() throws {
        var h = try Self.hoveringWithPaths()
        let north = ControllerHarness.point(northM: 100)
        h.position(north)
        let started = h.command(.returnHome)
        #expect(started.contains { if case .log(_, let text) = $0 { text.contains("way home meets 'pond'") }
                                   else { false } })
        let route = try #require(h.machine.returnRoute)
        #expect(!route.corners.isEmpty)
        let airspace = try Airspace(ControllerAirspaceTests.definition(marginM: 2))
        let path = [north] + route.corners + [ControllerHarness.home]
        for (a, b) in zip(path, path.dropFirst()) { #expect(airspace.zoneMetByLeg(from: a, to: b, marginM: 2) == nil) }
        // The brake and the climb, held north of the zone.
        h.run(ms: 6000, position: north)
        for (index, corner) in route.corners.enumerated() {
            h.run(ms: 300, position: corner)
            #expect(h.machine.activity == .returningHome, "corner \(index + 1) is passed, not landed at")
            #expect(h.machine.returnRoute?.leg == index + 2)
        }
        // All corners passed: home itself is the goal (its descent and landing are the return's, tested there).
        #expect(h.machine.returnRoute?.corner == nil)
        #expect(h.machine.activity == .returningHome)
    }
}

/// The route on the bus (`publishAirspaceRoute`, `airspace/route`): published when it starts (with its corners,
/// leg 1), at each corner (the index moves), and as "none" when it ends; never again while nothing changed.
@Suite struct ControllerAirspaceRoutePlanTests {
    static func plans(_ actions: [ControllerAction]) -> [AirspaceRoutePlan] {
        actions.compactMap { if case .publishAirspaceRoute(let plan) = $0 { plan } else { nil } }
    }

    static func point(_ p: GeoPoint) -> AirspaceRoutePlan.Point {
        .init(latitudeDeg: p.latitudeDeg, longitudeDeg: p.longitudeDeg)
    }

    /// Hovering at home with the paths built, a target 100 m north behind the pond accepted: its plan.
    static func aroundThePond() throws -> (ControllerHarness, AirspaceRoutePlan) {
        var h = try ControllerAirspaceRouteTests.hoveringWithPaths()
        let published = plans(h.target(ControllerHarness.point(northM: 100)))
        #expect(published.count == 1)
        return (h, try #require(published.first))
    }

    @Test func theRouteIsPublishedWhenTheTargetIsJudgedWithItsCornersAndZone() throws {
        let (h, plan) = try Self.aroundThePond()
        let route = try #require(h.machine.route)
        #expect(plan.purpose == .target && plan.nextCorner == 0 && plan.leg == 1)
        #expect(plan.corners == route.corners.map(Self.point) && !plan.corners.isEmpty)
        #expect(plan.goal == Self.point(ControllerHarness.point(northM: 100)))
        #expect(plan.start == Self.point(ControllerHarness.home))
        #expect(plan.zoneName == "pond" && plan.lengthM > plan.straightM && abs(plan.straightM - 100) < 0.5)
        #expect(plan.sequence > 0 && plan.timestampUs == 0)
        #expect(try AirspaceRoutePlan(decoding: plan.encoded()) == plan)
    }

    @Test func eachCornerPublishesTheNextIndexOnceAndArrivalPublishesNone() throws {
        let judged = try Self.aroundThePond()
        var h = judged.0
        let first = judged.1
        let route = try #require(h.machine.route)
        // Solutions that change nothing publish nothing.
        #expect(Self.plans(ControllerAirspaceRouteTests.solution(&h, at: ControllerHarness.home)).isEmpty)
        var last = first
        for (index, corner) in route.corners.enumerated() {
            let published = Self.plans(ControllerAirspaceRouteTests.hold(&h, at: corner))
            #expect(published.count == 1, "corner \(index + 1)")
            let plan = try #require(published.first)
            #expect(plan.nextCorner == index + 1 && plan.corners == first.corners && plan.purpose == .target)
            #expect(plan.sequence == last.sequence &+ 1)
            last = plan
        }
        let arrival = Self.plans(ControllerAirspaceRouteTests.hold(&h, at: ControllerHarness.point(northM: 100)))
        #expect(h.machine.activity == .arrived)
        #expect(arrival.count == 1 && arrival.first?.isNone == true && arrival.first?.corners == [])
    }

    @Test func aNewStraightTargetPublishesNone() throws {
        var (h, _) = try Self.aroundThePond()
        let published = Self.plans(h.target(ControllerHarness.point(northM: 100, eastM: 60)))
        #expect(h.machine.route?.corners == [])
        #expect(published.map(\.purpose) == [.none])
        // And a straight target after it publishes nothing more.
        #expect(Self.plans(h.target(ControllerHarness.point(northM: 90, eastM: 60))).isEmpty)
    }

    @Test func landingPublishesNone() throws {
        var (h, _) = try Self.aroundThePond()
        let published = Self.plans(h.command(.land))
        #expect(h.machine.target == nil)
        #expect(published.map(\.purpose) == [.none])
    }

    @Test func aReplacedAirspacePublishesNone() throws {
        var (h, _) = try Self.aroundThePond()
        var other = ControllerAirspaceTests.definition(marginM: 3)
        other.sequence = 2
        let published = Self.plans(h.machine.airspace(other, store: true, now: h.now))
        #expect(h.machine.route == nil)
        #expect(published.map(\.purpose) == [.none])
    }

    @Test func theReturnsWayHomeIsPublishedCornerByCornerAndNoneWhenItLands() throws {
        var h = try ControllerAirspaceRouteTests.hoveringWithPaths()
        let north = ControllerHarness.point(northM: 100)
        h.position(north)
        let started = Self.plans(h.command(.returnHome))
        let route = try #require(h.machine.returnRoute)
        let plan = try #require(started.first)
        #expect(started.count == 1)
        #expect(plan.purpose == .returnHome && plan.corners == route.corners.map(Self.point) && plan.nextCorner == 0)
        #expect(plan.goal == Self.point(ControllerHarness.home) && plan.start == Self.point(north))
        #expect(plan.zoneName == "pond")
        var published = h.run(ms: 6000, position: north)
        for corner in route.corners { published += h.run(ms: 300, position: corner) }
        #expect(Self.plans(published).map(\.nextCorner) == Array(1...route.corners.count))
        // A land ends the return, and its route.
        published = h.command(.land)
        #expect(h.machine.activity == .landing)
        #expect(Self.plans(published).map(\.purpose) == [.none])
    }
}

/// A restart is a normal event (issue 38): a restored target whose leg meets a zone, judged on its first solution
/// while the paths around the zones are still being built, waits hovering with the target kept, then is flown.
@Suite struct ControllerAirspaceRouteRestartTests {
    /// A run flying around the pond to 100 m north and the memory it kept; a new run that restored it and the
    /// airspace from its file (its paths requested, not built), first navdata in the air, a fix at home.
    static func restartedAroundThePond() throws -> (ControllerHarness, PathPlannerRequest) {
        var run = try ControllerAirspaceRouteTests.hoveringWithPaths()
        run.machine.bootId = "boot-a"
        var remembered: FlightMemory?
        for case .rememberFlight(let memory) in run.target(ControllerHarness.point(northM: 100)) {
            remembered = memory
        }
        let memory = try #require(remembered)
        var h = ControllerHarness()
        h.nowUs = run.nowUs + 2_000_000
        h.machine.bootId = "boot-a"
        _ = h.machine.restore(memory, now: h.now)
        let restored = h.machine.airspace(ControllerAirspaceTests.definition(marginM: 2), store: false, now: h.now)
        let request = try #require(restored.compactMap {
            if case .buildPathPlanner(let r) = $0 { r } else { nil } }.first)
        h.drone(.flying)
        #expect(h.activity == .flyingToTarget && h.reason == .resumedTarget)
        h.position(ControllerHarness.home)
        return (h, request)
    }

    @Test func aRestoredTargetBehindTheZoneHoversUntilThePathsAreBuiltThenFliesAroundIt() throws {
        var (h, request) = try Self.restartedAroundThePond()
        let first = ControllerAirspaceRouteTests.solution(&h, at: ControllerHarness.home)
        #expect(h.activity == .hovering && h.reason == .targetAwaitingAirspacePaths)
        #expect(h.machine.target != nil, "the target is kept, not dropped")
        #expect(!first.contains { if case .rejected = $0 { true } else { false } })
        // More solutions change nothing: it waits for the paths, it does not fly into the zone.
        h.advance(ms: 100)
        ControllerAirspaceRouteTests.solution(&h, at: ControllerHarness.home)
        #expect(h.activity == .hovering && h.machine.target != nil && h.machine.route == nil)
        let built = h.machine.pathPlannerBuilt(PathPlanner(airspace: request.airspace), checksum: request.checksum,
                                               now: h.now)
        #expect(h.activity == .flyingToTarget && h.reason == .targetAroundZone)
        let route = try #require(h.machine.route)
        #expect(!route.corners.isEmpty)
        #expect(ControllerAirspaceRoutePlanTests.plans(built).map(\.purpose) == [.target])
        // Its next solution steers at the first corner.
        h.advance(ms: 100)
        ControllerAirspaceRouteTests.solution(&h, at: ControllerHarness.home)
        #expect(h.activity == .flyingToTarget && h.machine.route == route)
    }

    @Test func aNewAirspaceMidRouteKeepsTheTargetUntilItsPathsAreBuiltThenFliesAroundAgain() throws {
        var h = try ControllerAirspaceRouteTests.hoveringWithPaths()
        h.target(ControllerHarness.point(northM: 100))
        ControllerAirspaceRouteTests.solution(&h, at: ControllerHarness.home)
        #expect(h.activity == .flyingToTarget && h.reason == .targetAroundZone)
        // The same zones with a wider margin: the target's point is still allowed, its leg waits for new paths.
        var wider = ControllerAirspaceTests.definition(marginM: 3)
        wider.sequence = 2
        let replaced = h.machine.airspace(wider, store: true, now: h.now)
        #expect(h.machine.target != nil, "dropped at the upload for want of paths not built yet")
        #expect(!replaced.contains { if case .rejected = $0 { true } else { false } })
        let request = try #require(replaced.compactMap {
            if case .buildPathPlanner(let r) = $0 { r } else { nil } }.first)
        h.advance(ms: 100)
        ControllerAirspaceRouteTests.solution(&h, at: ControllerHarness.home)
        #expect(h.activity == .hovering && h.reason == .targetAwaitingAirspacePaths)
        h.position(ControllerHarness.home)
        _ = h.machine.pathPlannerBuilt(PathPlanner(airspace: request.airspace), checksum: request.checksum,
                                       now: h.now)
        #expect(h.activity == .flyingToTarget && h.reason == .targetAroundZone)
        #expect(h.machine.route.map { !$0.corners.isEmpty } == true)
    }

    @Test func aNewTargetOrALandingEndsTheWait() throws {
        var (h, _) = try Self.restartedAroundThePond()
        ControllerAirspaceRouteTests.solution(&h, at: ControllerHarness.home)
        #expect(h.reason == .targetAwaitingAirspacePaths)
        h.command(.land)
        #expect(h.machine.target == nil && h.activity == .landing)
    }
}
