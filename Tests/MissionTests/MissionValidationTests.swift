import Airspace
import GroundStation
import Mission
import Navigation
import Testing

@Suite struct MissionValidationTests {
    typealias F = MissionFixtures

    static func plan(_ kinds: [MissionItem.Kind]) -> MissionPlan { MissionPlan(kinds: kinds) }
    static func waypoint(_ point: GeoPoint, altitudeM: Double = 10) -> MissionItem.Kind {
        .waypoint(point, altitudeM: altitudeM, holdTime: .zero, acceptanceRadiusM: 1)
    }

    @Test func theSamplePlanIsValid() throws {
        try F.plan.validate(limits: F.limits)
    }

    @Test(arguments: [
        (plan([]), MissionPlanError.empty),
        (plan(Array(repeating: .changeSpeed(speedMps: 2), count: 101)), .tooManyItems(count: 101, max: 100)),
        (plan([.takeoff(altitudeM: .nan)]), .notFinite(item: 0, field: "altitude")),
        (plan([.takeoff(altitudeM: 5), waypoint(GeoPoint(latitudeDeg: .infinity, longitudeDeg: 13))]),
         .notFinite(item: 1, field: "latitude")),
        (plan([waypoint(GeoPoint(latitudeDeg: 91, longitudeDeg: 13))]), .latitudeOutOfRange(item: 0, value: 91)),
        (plan([waypoint(GeoPoint(latitudeDeg: 52, longitudeDeg: -181))]), .longitudeOutOfRange(item: 0, value: -181)),
        (plan([.takeoff(altitudeM: 5), .changeSpeed(speedMps: 0)]),
         .outOfRange(item: 1, field: "speed", value: 0, expected: "(0, 15.0] m/s")),
        (plan([.takeoff(altitudeM: 5), .takeoff(altitudeM: 60)]), .aboveCeiling(item: 1, altitudeM: 60, ceilingM: 50)),
        (plan([.takeoff(altitudeM: -1)]), .outOfRange(item: 0, field: "altitude", value: -1, expected: "0...10000 m")),
        (plan([.loiterTime(F.point(northM: 10, eastM: 0), altitudeM: 5, time: .seconds(-1))]),
         .outOfRange(item: 0, field: "hold time", value: -1, expected: "0...3600 s")),
        (plan([.returnToLaunch, .takeoff(altitudeM: 5)]), .itemAfterEnd(item: 1)),
    ] as [(MissionPlan, MissionPlanError)])
    func aBrokenRuleRefusesThePlanNamingTheItem(plan: MissionPlan, error: MissionPlanError) {
        #expect(throws: error) { try plan.validate(limits: F.limits) }
    }

    @Test func idsMustBeUniqueAndInOrder() {
        var plan = Self.plan([.takeoff(altitudeM: 5), .changeSpeed(speedMps: 2), .land(nil)])
        plan.items[2].id = 1
        #expect(throws: MissionPlanError.duplicateId(item: 2, id: 1)) { try plan.validate(limits: F.limits) }
        plan.items[2].id = 7
        #expect(throws: MissionPlanError.wrongId(item: 2, id: 7)) { try plan.validate(limits: F.limits) }
    }

    @Test func aPointOutsideTheFenceCircleIsRefused() throws {
        let plan = Self.plan([.takeoff(altitudeM: 5), Self.waypoint(F.point(northM: 250, eastM: 0))])
        #expect {
            try plan.validate(limits: F.limits)
        } throws: { error in
            guard case let .outsideFence(item, distanceM, radiusM) = error as? MissionPlanError else { return false }
            return item == 1 && abs(distanceM - 250) < 0.5 && radiusM == 200
        }
    }

    @Test func aPointInAKeepOutZoneIsRefusedNamingTheZone() throws {
        let pond = Zone(name: "pond", kind: .keepOut, shape: .circle(centre: F.point(northM: 50, eastM: 50),
                                                                    radiusM: 15))
        var limits = F.limits
        limits.airspace = try Airspace(zones: [pond], ceilingM: 40, marginM: 2)
        let plan = Self.plan([.takeoff(altitudeM: 5), Self.waypoint(F.point(northM: 10, eastM: 0)),
                              Self.waypoint(F.point(northM: 52, eastM: 48))])
        #expect(throws: MissionPlanError.airspace(item: 2, rule: "inside keep-out zone", zoneName: "pond")) {
            try plan.validate(limits: limits)
        }
        #expect(MissionPlanError.airspace(item: 2, rule: "inside keep-out zone", zoneName: "pond").description
            == "item 2: inside keep-out zone 'pond'")
        let high = Self.plan([Self.waypoint(F.point(northM: 10, eastM: 0), altitudeM: 45)])
        #expect(throws: MissionPlanError.airspace(item: 0, rule: "above the ceiling", zoneName: nil)) {
            try high.validate(limits: limits)
        }
    }

    @Test func routeFilesBecomeWaypointItemsThroughTheOneRouteParser() throws {
        let csv = "lat,lon,alt\n52.5150,13.3510,12\n52.5155,13.3525\n"
        let plan = try MissionPlan.route(text: csv, fileName: "route.csv", defaultAltitudeM: 8)
        #expect(plan.items.map(\.kind) == [
            .waypoint(GeoPoint(latitudeDeg: 52.5150, longitudeDeg: 13.3510), altitudeM: 12, holdTime: .zero,
                      acceptanceRadiusM: 1),
            .waypoint(GeoPoint(latitudeDeg: 52.5155, longitudeDeg: 13.3525), altitudeM: 8, holdTime: .zero,
                      acceptanceRadiusM: 1),
        ])
        let gpx = #"<gpx version="1.1"><rte><rtept lat="52.515" lon="13.351"/><rtept lat="52.5155" lon="13.3515"/>"#
            + "</rte></gpx>"
        let fromGPX = try MissionPlan.route(text: gpx, fileName: "r.gpx", defaultAltitudeM: 6)
        #expect(fromGPX.items.map(\.altitudeM) == [6, 6] && fromGPX.items.map(\.id) == [0, 1])
        try fromGPX.validate(limits: F.limits)
        #expect(throws: RouteParseError.noWaypoints) {
            try MissionPlan.route(text: "# nothing\n", fileName: "r.csv", defaultAltitudeM: 6)
        }
    }
}
