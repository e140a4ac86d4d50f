import Airspace
import Checksums
import Clocks
import Navigation
import QuadProtocol

/// Targets behind keep-out zones (issue 38): flown around them, leg by leg, on the planner's shortest path. Every
/// target is judged once: at acceptance from where the drone is, or (a mission's, a restored one) on its first
/// navigation solution. A straight leg that keeps the margin is flown straight; one that does not gets a route, or
/// the target is refused (dropped in the air, the drone hovering) when no path keeps the route's clearance.
extension ControllerStateMachine {
    /// The planner for the airspace held, built off the controller's thread. One for a replaced airspace is dropped.
    public mutating func pathPlannerBuilt(_ planner: PathPlanner, checksum: UInt32,
                                          now: MonotonicInstant) -> [ControllerAction] {
        guard airspace.current != nil, checksum == airspace.checksum else {
            return [.log(.debug, "paths for airspace \(CRC32.text(checksum)) came after it was replaced: dropped")]
        }
        airspace.planner = planner
        airspace.plannerChecksum = checksum
        let ready = ControllerAction.log(.info, """
            paths around the zones of airspace \(CRC32.text(checksum)) ready: \(planner.nodeCount) corners, \
            \(Int(planner.airspace.marginM.rounded())) m from the zones
            """)
        return finish([ready] + judgeAwaitedTarget(now: now), now: now)
    }

    /// Whether the paths around the airspace held are still being built (none yet, or the old airspace's).
    var pathsPending: Bool {
        airspace.current != nil && (airspace.planner == nil || airspace.plannerChecksum != airspace.checksum)
    }

    /// The paths came for a target held while they were built: judged now from the drone's fresh fix, flown (around
    /// the zones, or straight) or dropped (no way around); without a fresh fix its next solution judges it.
    mutating func judgeAwaitedTarget(now: MonotonicInstant) -> [ControllerAction] {
        guard awaitingPaths else { return [] }
        awaitingPaths = false
        route = nil
        guard let target, activity == .hovering, positionFresh(now: now), let start = lastPosition else { return [] }
        let goal = GeoPoint(latitudeDeg: target.latitudeDeg, longitudeDeg: target.longitudeDeg)
        let judged = judgedRoute(from: start, to: goal)
        guard let judgedRoute = judged.route else { return dropForLeg(target, zoneName: judged.zoneName, now: now) }
        route = judgedRoute
        let around = !judgedRoute.corners.isEmpty
        return (around ? [routeLog(judgedRoute, zoneName: judged.zoneName, to: target)] : [])
            + apply(Transition(to: .flyingToTarget, reason: around ? .targetAroundZone : .navigationResumed), now: now)
    }

    /// A target in the air whose leg meets a zone with no way around: dropped, the drone hovering.
    mutating func dropForLeg(_ target: Target, zoneName: String?, now: MonotonicInstant) -> [ControllerAction] {
        clearTarget()
        return [.log(.warning, """
            target \(target.latitudeDeg),\(target.longitudeDeg): the straight leg meets \
            '\(zoneName ?? "a zone")' and no path around it keeps \
            \(Int(AirspaceRecord.routeClearanceM(marginM: airspace.current?.marginM ?? 0))) m from the \
            zones: hovering, target dropped
            """)] + apply(Transition(to: .hovering, reason: .targetRefusedAirspaceLeg), now: now)
    }

    /// The way from `start` to `goal`: straight when that leg keeps the margin, else around the zones; nil when
    /// the straight leg meets a zone (named) and no path keeps the route's clearance (or none is planned yet).
    func judgedRoute(from start: GeoPoint?, to goal: GeoPoint) -> (route: AirspaceRoute?, zoneName: String?) {
        guard let current = airspace.current, let start, current.contains(start) else {
            return (AirspaceRoute(path: [goal]), nil)
        }
        // A drone already inside the margin may leave on any leg that enters no zone (the margin is not asked of
        // it); one in a zone, or with no position, is judged by the target's own checks only.
        let marginM = current.clearance(start).distanceM < current.marginM ? 0 : current.marginM
        guard let zoneName = current.zoneMetByLeg(from: start, to: goal, marginM: marginM) else {
            return (AirspaceRoute(path: [start, goal]), nil)
        }
        guard let planner = airspace.planner, airspace.plannerChecksum == airspace.checksum,
              let path = try? planner.plan(from: start, to: goal), path.count > 2 else { return (nil, zoneName) }
        return (AirspaceRoute(path: path, zoneName: zoneName), zoneName)
    }

    /// Where a target's leg starts when it is judged at acceptance: the drone's fresh fix, else home.
    func legStart(now: MonotonicInstant) -> GeoPoint? { positionFresh(now: now) ? lastPosition : home }

    /// The log line of a route around a zone.
    func routeLog(_ route: AirspaceRoute, zoneName: String?, to target: Target) -> ControllerAction {
        .log(.notice, """
            target \(target.latitudeDeg),\(target.longitudeDeg): the straight leg meets \
            '\(zoneName ?? "a zone")': flying around it in \(route.legCount) legs, \
            \(Int(route.lengthM.rounded())) m (straight \(Int(route.straightM.rounded())) m)
            """)
    }

    /// A navigator solution for the target, as the steering takes it: re-aimed at the route's corner. A target
    /// not judged yet is judged from the solution's fix; one whose leg meets a zone with no way around is dropped
    /// and the drone hovers, unless the paths are still being built: then it hovers with the target kept
    /// (`awaitingPaths`, judged again by `pathPlannerBuilt`).
    mutating func steeringSolution(_ solution: NavigationSolution, now: MonotonicInstant)
        -> (solution: NavigationSolution, actions: [ControllerAction]) {
        guard let target, !awaitingPaths else { return (solution, []) }
        let goal = GeoPoint(latitudeDeg: target.latitudeDeg, longitudeDeg: target.longitudeDeg)
        var actions: [ControllerAction] = []
        if route.map({ !Self.samePoint($0.goal, goal) }) ?? true, activity.isAirborne,
           activity != .returningHome {
            let drone = GeoPoint(latitudeDeg: solution.droneLatitudeDeg, longitudeDeg: solution.droneLongitudeDeg)
            let judged = judgedRoute(from: drone, to: goal)
            guard let judgedRoute = judged.route else {
                // A restart (or a new airspace) is a normal event: while its paths are built the target waits,
                // the drone hovering, and is judged again when they are there.
                if judged.zoneName != nil, pathsPending {
                    awaitingPaths = true
                    actions.append(.log(.notice, """
                        target \(target.latitudeDeg),\(target.longitudeDeg): the straight leg meets \
                        '\(judged.zoneName ?? "a zone")' and the paths around the zones are still being built: \
                        hovering, the target kept
                        """))
                    actions += apply(Transition(to: .hovering, reason: .targetAwaitingAirspacePaths), now: now)
                    return (solution, actions)
                }
                return (solution, dropForLeg(target, zoneName: judged.zoneName, now: now))
            }
            route = judgedRoute
            if !judgedRoute.corners.isEmpty {
                actions.append(routeLog(judgedRoute, zoneName: judged.zoneName, to: target))
                if activity == .flyingToTarget {
                    actions += apply(.keeping(.flyingToTarget, reason: .targetAroundZone), now: now)
                }
            }
        }
        return (route?.steering(solution) ?? solution, actions)
    }

    /// The flight to the target arrived at its point: a route's corner (then on to the next leg, no arrival), or the
    /// target (nil: the arrival stands).
    mutating func cornerReached(now: MonotonicInstant) -> [ControllerAction]? {
        guard var current = route, let corner = current.corner else { return nil }
        current.cornerReached()
        route = current
        // The last solution (aimed at the corner passed) steers until the next one, a few tens of ms: dropping it
        // would hover the drone on stale navigation at every corner.
        resetTargetArrival()
        flyingToTargetMoved()
        return [.log(.info, """
            corner \(corner.latitudeDeg),\(corner.longitudeDeg) reached: leg \(current.leg) of \(current.legCount)
            """)]
    }

    /// The route flown now as `airspace/route` carries it: the return's way home, else the target's way (until
    /// the target is arrived at); none while neither goes around a zone.
    var currentRoutePlan: AirspaceRoutePlan {
        if let around = returnRoute, !around.corners.isEmpty { return around.plan(.returnHome) }
        if target != nil, activity != .arrived, let around = route, !around.corners.isEmpty {
            return around.plan(.target)
        }
        return .none()
    }

    /// `publishAirspaceRoute` when the route flown changed (started, a corner passed, ended), else nothing.
    /// Checked on every `finish` (the 30 Hz tick): with no route flown and none published it builds nothing.
    mutating func routePlanChange() -> [ControllerAction] {
        if route == nil, returnRoute == nil, lastRoutePlan == .none() { return [] }
        let plan = currentRoutePlan
        guard plan != lastRoutePlan else { return [] }
        lastRoutePlan = plan
        routePlanSequence &+= 1
        var published = plan
        published.sequence = routePlanSequence
        return [.publishAirspaceRoute(published)]
    }

    static func samePoint(_ a: GeoPoint, _ b: GeoPoint) -> Bool {
        abs(a.latitudeDeg - b.latitudeDeg) < 1e-9 && abs(a.longitudeDeg - b.longitudeDeg) < 1e-9
    }
}
