import Airspace
import Checksums
import Clocks
import Navigation
import QuadProtocol

/// The uploaded airspace (issue 38): taken when valid (stored, then answered with its checksum), and every target
/// checked against it, besides the geofence circle around home.
extension ControllerStateMachine {
    /// An upload from the bus (`store`: keep it on the board) or the copy the previous run stored (`store` false).
    /// Invalid zones are refused with where they are broken, in the status and the log; the airspace held stays.
    public mutating func airspace(_ definition: AirspaceDefinition, store: Bool,
                                  now: MonotonicInstant) -> [ControllerAction] {
        let checksum = definition.checksum
        // While a pilot holds control only the pilot changes where the drone may fly: another ground tool could
        // otherwise lift a keep-out zone under the pilot's flight. The copy restored at start is the board's own.
        if store, let pilotId, definition.senderId != pilotId {
            airspace.uploadRefusal = .init(checksum: checksum, reason: "not-pilot: \(pilotId) holds control")
            return [.rejected(kind: "airspace", reason: .notPilot),
                    .log(.warning, """
                        airspace \(CRC32.text(checksum)) from \(definition.senderId) refused: \(pilotId) holds control
                        """),
                    .publishAirspaceStatus(airspace.nextStatus())]
        }
        let accepted: Airspace
        do { accepted = try Airspace(definition) } catch {
            // Cut by characters, never inside one: a cut UTF-8 sequence decodes as U+FFFD (3 bytes), which could
            // take the text past the limit and the status off the bus.
            var reason = "\(error)"
            while reason.utf8.count > AirspaceStatus.reasonBytes.upperBound { reason.removeLast() }
            airspace.uploadRefusal = .init(checksum: checksum, reason: reason)
            return [.rejected(kind: "airspace", reason: .airspaceInvalid),
                    .log(.warning, "airspace \(CRC32.text(checksum)) from \(definition.senderId) refused: \(error)"),
                    .publishAirspaceStatus(airspace.nextStatus())]
        }
        airspace.current = accepted
        airspace.checksum = checksum
        airspace.uploadRefusal = nil
        airspace.planner = nil
        // A target's way is judged again against these zones (on its next solution).
        route = nil
        var actions: [ControllerAction] = store ? [.storeAirspace(definition)] : []
        if let request = airspace.plannerRequest() { actions.append(.buildPathPlanner(request)) }
        actions.append(.log(.notice, """
            airspace \(CRC32.text(checksum)) \(store ? "accepted from \(definition.senderId)" : "restored"): \
            \(accepted.zones.count) zones, ceiling \(accepted.ceilingM) m, margin \(accepted.marginM) m
            """))
        // Before the status: whoever sees the new checksum there finds the zones already held on the bus.
        actions.append(.publishAirspaceHeld(definition))
        // A target the new airspace forbids is dropped as the geofence drops one: a flight to it hovers. Its point
        // only: its leg is judged on its next solution, once the new paths are built (until then it hovers with
        // the target kept), as a restored target's is; the old paths would judge the new zones wrongly.
        if let target, let refusal = airspaceJudgement(target, judgingLeg: false, now: now).refusal {
            clearTarget()
            actions.append(.publishAirspaceStatus(airspace.nextStatus()))
            if activity == .flyingToTarget || activity == .arrived {
                return finish(actions + [.rejected(kind: "target", reason: refusal)]
                              + apply(Transition(to: .hovering, reason: refusal), now: now), now: now)
            }
            return finish(actions + [refuse(kind: "target", reason: refusal, now: now)], now: now)
        }
        actions.append(.publishAirspaceStatus(airspace.nextStatus()))
        // The route to the target is dropped (judged again on its next solution): none on the bus until then.
        return actions + routePlanChange()
    }

    /// Why the airspace forbids `candidate` (at its altitude, else the cruise altitude), or nil; the refusal with
    /// the zone's name is kept for the status.
    mutating func airspaceRefusal(_ candidate: Target, now: MonotonicInstant) -> Reason? {
        airspaceJudgement(candidate, now: now).refusal
    }

    /// `airspaceRefusal`, and the way to an accepted target from where the drone is: straight, or around the zones
    /// when the straight leg meets one (refused when no path keeps the route's clearance: `judgedRoute`).
    /// `judgingLeg` false: the point alone (the leg is left to the target's next solution).
    mutating func airspaceJudgement(_ candidate: Target, judgingLeg: Bool = true, now: MonotonicInstant)
        -> (refusal: Reason?, route: AirspaceRoute?, aroundZone: String?) {
        let point = GeoPoint(latitudeDeg: candidate.latitudeDeg, longitudeDeg: candidate.longitudeDeg)
        guard let current = airspace.current else { return (nil, nil, nil) }
        var found = current.violation(point, altitudeM: wantedAltitude(for: candidate)).map { ($0.kind, $0.zoneName) }
        if found == nil, current.marginM > 0 {
            let clearance = current.clearance(point)
            if clearance.distanceM < current.marginM { found = (.withinMargin, clearance.zoneName) }
        }
        var route: AirspaceRoute?
        var aroundZone: String?
        if found == nil, judgingLeg {
            let judged = judgedRoute(from: legStart(now: now), to: point)
            (route, aroundZone) = (judged.route, judged.zoneName)
            if route == nil { found = (.legCrossesZone, judged.zoneName) }
        }
        guard let (kind, zone) = found else { return (nil, route, aroundZone) }
        airspace.targetRefusal = .init(latitudeDeg: candidate.latitudeDeg, longitudeDeg: candidate.longitudeDeg,
                                       violation: kind.wire, zoneName: zone ?? "")
        pendingLogs.append(.log(.warning, """
            target \(candidate.latitudeDeg),\(candidate.longitudeDeg) from \(candidate.senderId) refused: \
            \(kind.rawValue)\(zone.map { " '\($0)'" } ?? "")\(kind == .legCrossesZone ? " and no path around it" : "")
            """))
        let reason: Reason = switch kind {
        case .insideKeepOut: .targetRefusedKeepOut
        case .outsideInclusion: .targetRefusedOutsideInclusion
        case .withinMargin: .targetRefusedAirspaceMargin
        case .aboveCeiling: .targetRefusedAirspaceCeiling
        case .belowFloor: .targetRefusedAirspaceFloor
        case .legCrossesZone: .targetRefusedAirspaceLeg
        }
        return (reason, nil, nil)
    }

    /// The status to publish at start (retained: what a ground tool reads before anything changes).
    public mutating func airspaceStatus() -> AirspaceStatus { airspace.nextStatus() }
}
