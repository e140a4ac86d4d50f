import Airspace
import FlightControl
import Mission
import Navigation
import QuadProtocol
import Testing

/// The battery rules price the way as it is flown (issue 38 with issue 37 item 5): around a keep-out zone the way
/// home or a mission's leg is longer than the straight line, and a budget on the straight line would send a drone
/// home on a battery that does not get it there.
@Suite struct ControllerAirspaceBatteryTests {
    /// A keep-out wall 40–60 m north of home, 160 m wide: from 100 m north the way home around it is about twice
    /// the straight 100 m.
    static let wall = AirspaceDefinition(
        senderId: "ground", sequence: 1, timestampUs: 0, ceilingM: 30, floorM: nil, marginM: 2,
        zones: [ControllerAirspaceTests.square("wall", .keepOut, north: 40...60, east: -80...80),
                ControllerAirspaceTests.square("field", .inclusion, north: -300...300, east: -300...300)])

    /// The wall held with its paths built, as drone-controller builds them off its thread.
    static func holdWall(_ h: inout ControllerHarness) throws {
        let actions = h.machine.airspace(wall, store: true, now: h.now)
        let request = try #require(actions.compactMap { if case .buildPathPlanner(let r) = $0 { r } else { nil } }
            .first)
        _ = h.machine.pathPlannerBuilt(PathPlanner(airspace: request.airspace), checksum: request.checksum,
                                       now: h.now)
    }

    static func logs(_ actions: [ControllerAction]) -> [String] {
        actions.compactMap { if case .log(_, let text) = $0 { text } else { nil } }
    }

    /// 100 m north of home, the battery just above `--land-battery` 35 %, then just below it.
    static func lowBattery(wall: Bool) throws -> (ControllerHarness, [ControllerAction]) {
        var configuration = ControllerConfiguration()
        configuration.landBatteryPercent = 35
        var h = ControllerReturnTests.hoveringAway(northM: 100, configuration: configuration, battery: 36)
        if wall { try holdWall(&h) }
        h.advance(ms: 30)
        let actions = h.drone(.hovering, battery: 34, headingDeg: 180)
        return (h, actions)
    }

    @Test func theLowBatteryReturnIsPricedAroundTheZoneNotStraight() throws {
        // Straight: 100 m home fits in the 28 % above the 6 % reserve.
        let (open, _) = try Self.lowBattery(wall: false)
        #expect(open.activity == .returningHome)
        #expect(open.reason == .batteryLowReturn)
        // Around the wall (~210 m) it does not: the drone lands where it is, and says why with the way's length.
        let (walled, actions) = try Self.lowBattery(wall: true)
        #expect(walled.activity == .landing)
        #expect(walled.reason == .batteryLowCannotReturn)
        let line = try #require(Self.logs(actions).first { $0.hasPrefix("battery low:") })
        let metres = try #require(Int(line.dropFirst("battery low: ".count).prefix { $0.isNumber }))
        #expect(metres > 180, "\(line)")
        #expect(line.contains("around 'wall'"), "\(line)")
    }

    @Test func aMissionStartIsPricedOnItsLegsAroundTheZone() throws {
        // Take off, fly to 100 m north (behind the wall), land there.
        let plan = MissionPlan(kinds: [
            .takeoff(altitudeM: ControllerMissionTests.altitudeM),
            .waypoint(ControllerHarness.point(northM: 100), altitudeM: ControllerMissionTests.altitudeM,
                      holdTime: .zero, acceptanceRadiusM: 1),
            .land(nil),
        ])
        func refusal(wall: Bool) throws -> String? {
            var h = ControllerMissionTests.loaded(plan)
            if wall { try Self.holdWall(&h) }
            h.batteryPercent = 16
            h.drone(.landed)
            return ControllerMissionTests.statuses(ControllerMissionTests.command(&h, .start)).last?.refusal?.reason
        }
        let straight = try #require(try refusal(wall: false))
        #expect(straight.contains(": 100 m to fly"), "\(straight)")
        let around = try #require(try refusal(wall: true))
        let figures = try #require(around.firstRange(of: "cover it: ").map { around[$0.upperBound...] })
        let metres = try #require(Int(figures.prefix { $0.isNumber }))
        #expect(metres > 180, "\(around)")
    }
}
