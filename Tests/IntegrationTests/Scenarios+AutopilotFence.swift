import Foundation
import Navigation
import ProcessSupport
import QuadProtocol
import Testing

/// Issue 38 item 4 against the real autopilots: the board's keep-out zone as the autopilot's own fence.
extension Scenarios {
    /// A keep-out square of 20 m whose near edge is 15 m east of the takeoff point.
    static let fenceSideM = 20.0
    static let fenceCentreEastM = 25.0

    /// Uploads a keep-out square through the stack (`airspace upload`), waits for mavlink-link's word that the
    /// autopilot's fence holds it, checks the fence the observer reads back (pymavlink, its own link) is that
    /// square, then kills mavlink-link (the board dies) and has the observer send the vehicle 8 m west (flown: the
    /// control) and then into the zone (DO_REPOSITION to its centre): by its own position it never enters. PX4
    /// refuses the reposition ("Reposition is outside geofence"), ArduCopter fails it (its GUIDED destination
    /// check against the fence). Then a goto beyond the zone, its path across it: the fence's action in flight
    /// stops the vehicle before the far edge (PX4 Hold after GF_PREDICT, ArduCopter Brake), but inside the zone
    /// (a known issue, measured). The airspace is removed after.
    static func autopilotFence(_ flight: AutopilotFlight) async throws {
        let airspaceFile = flight.stack.broker.directory
            .appendingPathComponent("xdg-state/quadcopter/drone-controller/\(flight.stack.drone)/airspace")
        defer { try? FileManager.default.removeItem(at: airspaceFile) }
        try await flight.scenario("fence") {
            let origin = try #require(flight.observer.now.latest, "no position from the autopilot").point
            let centre = flight.point(from: origin, bearingDeg: 90, distanceM: fenceCentreEastM)
            let zones = flight.stack.broker.directory.appendingPathComponent("keep-out.geojson")
            try AirspaceUploadTests.geoJSON(name: "barn", around: centre, sideM: fenceSideM)
                .write(to: zones, atomically: true, encoding: .utf8)
            let sentAt = Date()
            let upload = try await flight.broadcaster(["airspace", "upload", zones.path, "--ceiling", "60",
                                                       "--timeout", "20"], timeoutS: 30)
            try #require(upload.code == 0, "airspace upload: \(upload.output)")
            let statusTopic = Topics.airspaceFence.topic(for: flight.droneID)
            func fenceStatus() -> AirspaceStatus? {
                flight.bus.messages(on: statusTopic).filter { $0.at >= sentAt }
                    .compactMap { try? AirspaceStatus(decoding: $0.message.payload) }.last
            }
            try await eventually(timeout: .seconds(30), "mavlink-link: the autopilot's fence holds the airspace\n"
                                 + "\(fenceStatus().map { "\($0)" } ?? "no airspace/fence status")") {
                fenceStatus()?.accepted != nil
            }
            let status = try #require(fenceStatus())
            flight.measured("fence", "mavlink-link: fence in place (\(status.accepted!.zoneCount) zone)"
                            + (status.uploadRefusal.map { "; \($0.reason)" } ?? ""))

            // The observer's own read-back: four exclusion vertices, the square's corners.
            flight.observer.readFence()
            try await flight.observer.wait("the observer read the fence", timeoutS: 20) {
                $0.fence != nil || $0.fenceError != nil
            }
            let fence = try #require(flight.observer.now.fence, "\(flight.observer.now.fenceError ?? "")")
            let half = fenceSideM / 2
            let corners = [(-half, -half), (-half, half), (half, half), (half, -half)].map { north, east in
                flight.point(from: flight.point(from: centre, bearingDeg: 0, distanceM: north), bearingDeg: 90,
                             distanceM: east)
            }
            #expect(fence.count == 4, "fence items: \(fence)")
            for (item, corner) in zip(fence, corners) {
                #expect(item.command == 5002 && item.param1 == 4, "\(item)")
                #expect(abs(item.latitudeE7 - Int((corner.latitudeDeg * 1e7).rounded())) <= 1, "\(item) \(corner)")
                #expect(abs(item.longitudeE7 - Int((corner.longitudeDeg * 1e7).rounded())) <= 1, "\(item) \(corner)")
            }

            try await flight.takeOff()
            try await flight.observer.wait("at the cruise altitude", timeoutS: 20) {
                abs(($0.latest?.relativeAltitudeM ?? 0) - AutopilotFlight.cruiseAltitudeM) < 0.5
            }
            // The board dies: nothing of the stack flies the vehicle any more.
            let link = try #require(flight.stack.process("mavlink-link"))
            #expect(link.stop(signal: SIGKILL) == 128 + SIGKILL)
            try await Task.sleep(for: .seconds(3))
            // The control: a goto 8 m west (away from the zone) is flown, so the observer's gotos do move the
            // vehicle in this state, and what keeps it out of the zone next is the fence.
            let altitude = flight.observer.now.latest?.altitudeAMSLM ?? 0
            let west = flight.point(from: origin, bearingDeg: 270, distanceM: 8)
            let controlS = nowS()
            flight.observer.goto(west, altitudeAMSLM: altitude)
            try await flight.observer.wait("the control goto 8 m west flown (within 2 m)", timeoutS: 40,
                                           context: flight.observer.now.story(since: controlS)) {
                ($0.latest?.distanceM(to: west) ?? .infinity) < 2
            }
            flight.measured("fence", String(format: "control goto 8 m west: within 2 m after %.1f s",
                                            nowS() - controlS))
            func offsets(_ p: GeoPoint) -> (north: Double, east: Double) {
                let inverse = Geodesy.inverse(from: centre, to: p)
                let radians = inverse.initialBearingDeg * .pi / 180
                return (inverse.distanceM * cos(radians), inverse.distanceM * sin(radians))
            }
            /// How far inside the zone's edge (negative: outside).
            func depthM(_ p: AutopilotObserver.Position) -> Double {
                half - max(abs(offsets(p.point).north), abs(offsets(p.point).east))
            }
            /// The observer's goto, then `watchS` of what the autopilot did: its positions, the goto's MAV_RESULT
            /// and its story.
            func goto(_ point: GeoPoint, watchS: Double) async throws
                -> (path: [AutopilotObserver.Position], result: String, story: String) {
                let startS = nowS()
                let acksBefore = flight.observer.now.acks.count
                flight.observer.goto(point, altitudeAMSLM: altitude)
                try await Task.sleep(for: .seconds(watchS))
                let seen = flight.observer.now
                let ack = seen.acks.dropFirst(acksBefore).last { $0.command == 192 }
                return (seen.positions(from: startS), ack.map { "\($0.result)" } ?? "none", seen.story(since: startS))
            }

            let into = try await goto(centre, watchS: 20)
            let inside = into.path.filter { depthM($0) > 0 }
            let closestM = into.path.map { -depthM($0) }.min()
            flight.measured("fence", String(format: "goto into the zone (ack %@): %d positions in 20 s, %d inside; "
                                            + "closest %.1f m outside its edge; the autopilot said:\n%@",
                                            into.result, into.path.count, inside.count, closestM ?? .nan, into.story))
            #expect(!into.path.isEmpty, "no position after the goto")
            #expect(inside.isEmpty, "entered the keep-out zone: \(inside.count) positions inside")

            // A goto beyond the zone, its straight path across it: the destination is allowed, so what keeps the
            // vehicle out now is the fence's breach handling in flight (PX4 GF_PREDICT + Hold, ArduCopter Brake).
            let beyond = flight.point(from: origin, bearingDeg: 90, distanceM: fenceCentreEastM + fenceSideM)
            let across = try await goto(beyond, watchS: 25)
            let depthsM = across.path.map(depthM)
            let eastM = across.path.map { offsets($0.point).east }.max() ?? .nan
            flight.measured("fence", String(format: "goto beyond the zone (ack %@): deepest %.1f m inside its edge "
                                            + "(negative: outside), farthest east %.1f m from its centre; the "
                                            + "autopilot said:\n%@", across.result, depthsM.max() ?? .nan, eastM,
                                            across.story))
            // Stopped by the fence: without it the vehicle flies on to 45 m east, past the zone's far edge.
            #expect(eastM < half, "not stopped: \(eastM) m east of the zone's centre")
            // Not before the edge, though (measured: PX4 SIH 2.1 m in, GF_PREDICT's braking from ~5 m/s;
            // ArduCopter 9.9 m in: it sees the breach inside, then brakes): only a destination in the zone is kept
            // out entirely. The board's margin and straight-leg checks are what keep a path off the zone.
            let deepest = String(format: "%.1f", depthsM.max() ?? .nan)
            withKnownIssue("a path across the zone: the autopilot's fence stops the vehicle inside it",
                           isIntermittent: true) {
                #expect((depthsM.max() ?? 0) <= 0, "entered the keep-out zone on a path across it: \(deepest) m deep")
            }
            // The stack back for the landing (bringDown uses `land`).
            try flight.stack.startLink()
            try await flight.waitOnline("mavlink-link", since: Date())
        }
    }
}
