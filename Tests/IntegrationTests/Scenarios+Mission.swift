import Foundation
import Navigation
import ProcessSupport
import QuadProtocol
import Testing

/// Issue 37 item 6 (first part) against the real autopilots: the board's mission executor flies a QGroundControl
/// .plan on PX4 and ArduCopter, judged by the autopilot's own positions (the observer), never our telemetry.
extension Scenarios {
    /// The plan's legs and stays.
    static let missionLegM = 15.0
    static let missionHoldS = 2.0
    static let missionLoiterS = 5.0
    static let missionSpeedMps = 3.0
    /// Issue 37 item 6's tolerances.
    static let missionPassM = 2.0
    static let missionStayToleranceS = 1.0
    static let missionLandM = 1.0
    /// PX4's own AUTO mission (the copy it flies when the board dies) ends in its own LAND, judged by PX4 SIH's own
    /// position: LAND lands "at current position" and holds it with the velocity estimate that is biased by
    /// 0.2–0.6 m/s, and the estimate moves on while the vehicle sits on the ground until the disarm. Measured: it
    /// landed 0.08–1.72 m from D (2026-12-03, 4 runs), 0.36–0.41 m (2026-12-04, 3 runs). The board's own landings on
    /// PX4 are flown by the link in OFFBOARD (`OffboardLanding`) and judged at `missionLandM` like ArduCopter's.
    /// 2 m, as before a return's landing on PX4 (2.21 m once, in PX4's own LAND; no longer) made it 2.5 m.
    static let px4LandM = 2.0
    /// Where the autopilot's own LAND took over (ArduCopter's NAV_LAND), within this of its point.
    static let landingBeganM = 1.0
    /// The radius a stay is judged in: the items' acceptance radius (QGroundControl's default 0, the board's 1 m).
    static let missionStayRadiusM = 1.0
    /// Slower than this the vehicle is holding, not on its way (a leg is flown at `missionSpeedMps`).
    static let missionHoldingMps = 0.5

    /// One QGroundControl SimpleItem at `point` (or none), `altitudeM` above home; `params` are params[0…3].
    static func planItem(_ command: Int, _ point: GeoPoint?, altitudeM: Double = AutopilotFlight.cruiseAltitudeM,
                         params: [Double] = [0, 0, 0, 0]) -> String {
        let position = point.map { "\($0.latitudeDeg), \($0.longitudeDeg), \(altitudeM)" } ?? "0, 0, \(altitudeM)"
        let head = params.map { "\($0)" }.joined(separator: ", ")
        return #"{"type": "SimpleItem", "command": \#(command), "frame": 3, "autoContinue": true, "#
            + #""params": [\#(head), \#(position)]}"#
    }

    /// How long the vehicle stayed at `point`, by the observer's positions in `track`: from its arrival (the first
    /// position within `missionStayRadiusM`, the acceptance radius the board judges the item by) to its departure
    /// (the last position within that radius still slower than `missionHoldingMps` by `movedSpeedsMps`: the vehicle
    /// on its way to the next item is faster at once, while a hover's wander in and out of the radius does not end
    /// the stay; a turn in place over the point is part of the stay). Also the span within the radius (first to last
    /// position in it), reported. nil: never within the radius.
    static func stay(at point: GeoPoint, in track: [AutopilotObserver.Position])
        -> (arrivalS: Double, stayS: Double, withinS: Double)? {
        let speeds = movedSpeedsMps(track)
        let inside = track.indices.filter { track[$0].distanceM(to: point) <= missionStayRadiusM }
        guard let first = inside.first, let last = inside.last else { return nil }
        let departure = inside.last { speeds[$0] < missionHoldingMps } ?? last
        return (track[first].timeS, track[departure].timeS - track[first].timeS,
                track[last].timeS - track[first].timeS)
    }

    /// Each position's speed over the ground by the positions themselves: the distance from the one half a second
    /// before to the one half a second after, over their time apart. Not the autopilot's own velocity
    /// (GLOBAL_POSITION_INT vx, vy): PX4 SIH's read 0.4–0.6 m/s through a hover whose positions moved 0.1 m/s
    /// (its velocity estimate is biased; a probe read 0.3 m/s with the position standing still), and a stay judged
    /// by it ended early.
    static func movedSpeedsMps(_ track: [AutopilotObserver.Position], halfWindowS: Double = 0.5) -> [Double] {
        var before = 0, after = 0
        return track.indices.map { i in
            while track[before].timeS < track[i].timeS - halfWindowS { before += 1 }
            after = max(after, i)
            while after + 1 < track.count, track[after + 1].timeS <= track[i].timeS + halfWindowS { after += 1 }
            let spanS = track[after].timeS - track[before].timeS
            return spanS > 0 ? track[before].distanceM(to: track[after].point) / spanS : 0
        }
    }

    /// `mission upload FILE`, exit 0. A controller without a fix yet refuses ("no position yet"): the user uploads
    /// again, as drone-sim's do.
    static func uploadMission(_ flight: AutopilotFlight, _ file: URL) async throws {
        var upload = try await flight.broadcaster(["mission", "upload", file.path, "--timeout", "30"])
        for _ in 0..<20 where upload.code != 0 && upload.output.contains("no position yet") {
            try await Task.sleep(for: .milliseconds(500))
            upload = try await flight.broadcaster(["mission", "upload", file.path, "--timeout", "30"])
        }
        try #require(upload.code == 0, "mission upload: \(upload.output)\n\(flight.logs())")
    }

    /// Nothing of the plan for a later scenario: the controller's stored plan and progress, the retained upload a
    /// restarted controller would take up again.
    static func clearMission(_ flight: AutopilotFlight) {
        let directory = flight.stack.broker.directory
        let state = directory.appendingPathComponent("xdg-state/quadcopter/drone-controller/\(flight.stack.drone)")
        for name in ["mission", "mission-progress"] {
            try? FileManager.default.removeItem(at: state.appendingPathComponent(name))
        }
        if let tool = try? TestEnvironment.requireTool("mosquitto_pub"),
           let clear = try? ChildProcess(executable: tool, arguments: [
               "-h", "127.0.0.1", "-p", "\(flight.stack.broker.port)", "-q", "1", "-r", "-n",
               "-t", Topics.missionUpload.topic(for: flight.droneID)], logDirectory: directory) {
            _ = clear.waitForExit(timeout: TestEnvironment.readinessTimeout)
        }
    }

    /// Takeoff, a change of speed to 3 m/s, waypoint A 15 m north of home held 2 s, a loiter of 5 s at B 15 m west
    /// of A, waypoint C 15 m south of B, a land at D 8 m east of C (west: clear of the fence scenario's keep-out
    /// zone east of home, should a controller still hold it): uploaded with `mission upload`, started
    /// on the ground with `mission start` (its takeoff item is the takeoff command), flown by the board's executor
    /// through mavlink-link. By the autopilot's own positions: every point passed within 2 m, in order; the stays at
    /// A and B (`stay(at:in:)`) their hold ± 1 s; disarmed on the ground within 1 m of D; `mission status` completed.
    static func missionFlown(_ flight: AutopilotFlight) async throws {
        let directory = flight.stack.broker.directory
        defer { clearMission(flight) }
        try await flight.scenario("mission") {
            let home = try #require(flight.observer.now.latest, "no position from the autopilot").point
            let a = flight.point(from: home, bearingDeg: 0, distanceM: missionLegM)
            let b = flight.point(from: a, bearingDeg: 270, distanceM: missionLegM)
            let c = flight.point(from: b, bearingDeg: 180, distanceM: missionLegM)
            let d = flight.point(from: c, bearingDeg: 90, distanceM: 8)
            let file = try MissionFlightTests.Plan.write([
                planItem(22, nil),
                planItem(178, nil, params: [1, missionSpeedMps, -1, 0]),
                planItem(16, a, params: [missionHoldS, 0, 0, 0]),
                planItem(19, b, params: [missionLoiterS, 0, 0, 0]),
                planItem(16, c),
                planItem(21, d),
            ], to: directory.appendingPathComponent("autopilot-mission.plan"), hoverSpeedMps: missionSpeedMps)

            try await uploadMission(flight, file)
            // As for takeoffAndLand's hover: PX4 SIH sharing the CPU with ArduCopters booting beside it is not the
            // vehicle; its mission waits for their boots.
            if flight.kind == .px4 {
                try await eventually(timeout: .seconds(180), "no ArduCopter SITL booting beside PX4's mission") {
                    AutopilotSITL.arduCopterBooting == 0
                }
            }
            let startS = nowS()
            let start = try await flight.broadcaster(["mission", "start", "--timeout", "30"])
            try #require(start.code == 0, "mission start: \(start.output)\n\(flight.logs())")
            try await flight.observer.wait("airborne above 2 m after `mission start`", timeoutS: 60,
                                           context: flight.logs()) { ($0.latest?.relativeAltitudeM ?? 0) > 2 }
            // About 55 m at 3 m/s, 7 s of stays, the climb and the descent: a minute; generous.
            try await flight.waitDisarmedOnGround("the mission flown and landed (disarmed on the ground)",
                                                  timeoutS: 300)
            let endS = nowS()
            let seen = flight.observer.now
            let track = seen.positions(from: startS)

            // Closest approach to each point, and when; in order: each one's after the one before.
            let points = [("A", a), ("B", b), ("C", c), ("D", d)]
            var closest: [(name: String, distanceM: Double, timeS: Double, altitudeM: Double)] = []
            var fromS = startS
            for (name, point) in points {
                let after = track.filter { $0.timeS >= fromS }
                let best = try #require(after.min { $0.distanceM(to: point) < $1.distanceM(to: point) },
                                        "no position after \(fromS) for \(name)")
                closest.append((name, best.distanceM(to: point), best.timeS, best.relativeAltitudeM))
                // The next point's pass is looked for after this one's first pass within the tolerance (or its
                // closest, if none): a point passed is not passed again later.
                fromS = after.first { $0.distanceM(to: point) <= missionPassM }?.timeS ?? best.timeS
            }
            let atA = stay(at: a, in: track.filter { $0.timeS <= (closest.first { $0.name == "B" }?.timeS ?? endS) })
            let atB = stay(at: b, in: track.filter { $0.timeS <= (closest.first { $0.name == "C" }?.timeS ?? endS) })
            let landed = try #require(seen.latest)
            let landM = landed.distanceM(to: d)

            func stayText(_ s: (arrivalS: Double, stayS: Double, withinS: Double)?) -> String {
                s.map { String(format: "%.2f s (%.2f s within %.0f m)", $0.stayS, $0.withinS, missionStayRadiusM) }
                    ?? "never within \(missionStayRadiusM) m"
            }
            flight.measured("mission", closest.map {
                String(format: "%@ %.2f m at %.1f s (%.2f m up)", $0.name, $0.distanceM, $0.timeS - startS,
                       $0.altitudeM)
            }.joined(separator: ", ") + "; stays: A \(stayText(atA)) (hold \(missionHoldS)), B \(stayText(atB)) "
                + String(format: "(loiter %.0f); landed %.2f m from D (%.2f m when its landing began, %.2f m at "
                         + "touchdown); %.1f s from `mission start` to disarmed", missionLoiterS, landM,
                         position(when: .landing, seen, since: startS)?.distanceM(to: d) ?? .nan,
                         position(when: .onGround, seen, since: startS)?.distanceM(to: d) ?? .nan, endS - startS))

            for pass in closest {
                #expect(pass.distanceM <= missionPassM, "\(pass.name) passed \(pass.distanceM) m off")
            }
            let times = closest.map(\.timeS)
            #expect(times == times.sorted(), "points passed out of order: \(closest)")
            let stayA = try #require(atA, "never within \(missionStayRadiusM) m of A")
            let stayB = try #require(atB, "never within \(missionStayRadiusM) m of B")
            /// The approach and the stay as the autopilot flew them (every 0.5 s: time from the arrival, distance,
            /// speed by the positions and by the autopilot's velocity), and the controller's story: where a stay's
            /// time went.
            func approach(_ point: GeoPoint, _ s: (arrivalS: Double, stayS: Double, withinS: Double)) -> String {
                var nextS = -8.0
                var lines: [String] = []
                let moved = movedSpeedsMps(track)
                for (p, movedMps) in zip(track, moved)
                where p.timeS - s.arrivalS >= nextS && p.timeS - s.arrivalS <= s.withinS + 2 {
                    lines.append(String(format: "%+6.1f s %5.2f m %4.2f m/s (its own velocity %4.2f m/s)",
                                        p.timeS - s.arrivalS, p.distanceM(to: point), movedMps, p.groundSpeedMps))
                    nextS = p.timeS - s.arrivalS + 0.5
                }
                return lines.joined(separator: "\n") + "\n" + flight.controllerStory(since: Date() - (nowS() - startS))
            }
            #expect(abs(stayA.stayS - missionHoldS) <= missionStayToleranceS,
                    "held at A \(stayA.stayS) s\n\(approach(a, stayA))")
            #expect(abs(stayB.stayS - missionLoiterS) <= missionStayToleranceS,
                    "loitered at B \(stayB.stayS) s\n\(approach(b, stayB))")
            #expect(seen.isDisarmedOnGround)
            // Issue 37's 1 m on both. ArduCopter lands in its own LAND (it reports the landing's start: judged
            // too); PX4 is landed by the link in OFFBOARD all the way down (no LAND, no "landing" state).
            if let began = position(when: .landing, seen, since: startS) {
                let beganM = began.distanceM(to: d)
                #expect(beganM <= landingBeganM,
                        "the autopilot's landing began \(beganM) m from D\n\(flight.story(since: nowS() - startS))")
            }
            #expect(landM <= missionLandM, "landed \(landM) m from D\n\(flight.story(since: nowS() - startS))")

            let status = try await flight.broadcaster(["mission", "status", "--timeout", "30"])
            #expect(status.code == 0 && status.output.contains("completed") && status.output.contains("6 reached"),
                    "mission status: \(status.output)")
        }
    }
}
