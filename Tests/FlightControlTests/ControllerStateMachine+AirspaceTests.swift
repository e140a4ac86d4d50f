import Airspace
import Clocks
import FlightControl
import Navigation
import QuadProtocol
import Testing

/// The uploaded airspace (issue 38): targets refused with the zone's name, invalid uploads refused with where,
/// and the geofence circle still applying beside it.
@Suite struct ControllerAirspaceTests {
    /// A keep-out square 40–60 m north of home, 20 m wide; an inclusion square 300 m around home.
    static func square(_ name: String, _ kind: AirspaceDefinition.Zone.Kind, north: ClosedRange<Double>,
                       east: ClosedRange<Double>) -> AirspaceDefinition.Zone {
        let corners = [(north.lowerBound, east.lowerBound), (north.lowerBound, east.upperBound),
                       (north.upperBound, east.upperBound), (north.upperBound, east.lowerBound)]
        let ring = corners.map { corner in
            let p = ControllerHarness.point(northM: corner.0, eastM: corner.1)
            return AirspaceDefinition.Vertex(latitudeDeg: p.latitudeDeg, longitudeDeg: p.longitudeDeg)
        }
        return .init(name: name, kind: kind, shape: .polygon(rings: [ring]))
    }

    /// One keep-out square where the arguments say, and nothing else.
    static func square(marginM: Double, north: ClosedRange<Double>, east: ClosedRange<Double>) -> AirspaceDefinition {
        AirspaceDefinition(senderId: "ground", sequence: 1, timestampUs: 0, ceilingM: 30, floorM: nil,
                           marginM: marginM, zones: [square("block", .keepOut, north: north, east: east)])
    }

    static func definition(marginM: Double = 0, ceilingM: Double = 30, floorM: Double? = nil) -> AirspaceDefinition {
        return AirspaceDefinition(
            senderId: "ground", sequence: 1, timestampUs: 0, ceilingM: ceilingM, floorM: floorM, marginM: marginM,
            zones: [square("pond", .keepOut, north: 40...60, east: -10...10),
                    square("field", .inclusion, north: -300...300, east: -300...300)])
    }

    static func statuses(_ actions: [ControllerAction]) -> [AirspaceStatus] {
        actions.compactMap { if case .publishAirspaceStatus(let s) = $0 { s } else { nil } }
    }

    static func reasons(_ actions: [ControllerAction]) -> [Reason] {
        actions.compactMap { if case .publishState(let s) = $0 { s.reason } else { nil } }
    }

    @Test func anAcceptedUploadIsStoredThenAnsweredWithItsChecksum() throws {
        var h = ControllerHarness()
        let definition = Self.definition()
        let actions = h.machine.airspace(definition, store: true, now: h.now)
        #expect(actions.first == .storeAirspace(definition))
        let status = try #require(Self.statuses(actions).last)
        #expect(status.accepted == .init(checksum: definition.checksum, zoneCount: 2))
        // Restored at start: not stored again.
        var restarted = ControllerHarness()
        let restored = restarted.machine.airspace(definition, store: false, now: restarted.now)
        #expect(!restored.contains(.storeAirspace(definition)))
        #expect(Self.statuses(restored).last?.accepted?.checksum == definition.checksum)
    }

    @Test func whileAPilotHoldsControlOnlyThePilotChangesTheAirspace() throws {
        var h = ControllerHarness()
        _ = h.claim("anna")
        let other = Self.definition()   // sent by "ground"
        let refused = h.machine.airspace(other, store: true, now: h.now)
        #expect(!refused.contains(.storeAirspace(other)))
        #expect(refused.contains(.rejected(kind: "airspace", reason: .notPilot)))
        let status = try #require(Self.statuses(refused).last)
        #expect(status.accepted == nil)
        #expect(status.uploadRefusal?.reason == "not-pilot: anna holds control")
        var mine = other
        mine.senderId = "anna"
        #expect(h.machine.airspace(mine, store: true, now: h.now).contains(.storeAirspace(mine)))
        // The board's own copy, restored at start, is taken whoever holds control.
        var restarted = ControllerHarness()
        _ = restarted.claim("bert")
        #expect(Self.statuses(restarted.machine.airspace(other, store: false, now: restarted.now)).last?
                .accepted?.checksum == other.checksum)
    }

    @Test func anAcceptedAirspaceIsPublishedHeldBeforeItsStatusARefusedOneIsNot() throws {
        var h = ControllerHarness()
        let definition = Self.definition()
        for store in [true, false] {
            let actions = h.machine.airspace(definition, store: store, now: h.now)
            let heldAt = try #require(actions.firstIndex(of: .publishAirspaceHeld(definition)))
            let statusAt = try #require(actions.firstIndex {
                if case .publishAirspaceStatus = $0 { true } else { false }
            })
            #expect(heldAt < statusAt)
        }
        var broken = Self.definition()
        broken.zones[0].shape = .circle(centre: .init(latitudeDeg: 52, longitudeDeg: 13), radiusM: 0)
        let refused = h.machine.airspace(broken, store: true, now: h.now)
        #expect(!refused.contains { if case .publishAirspaceHeld = $0 { true } else { false } })
    }

    @Test func aTargetInsideTheKeepOutZoneIsRefusedWithTheZonesName() throws {
        var h = ControllerHarness()
        h.hovering()
        _ = h.machine.airspace(Self.definition(), store: true, now: h.now)
        let actions = h.target(ControllerHarness.point(northM: 50))
        #expect(Self.reasons(actions).last == .targetRefusedKeepOut)
        #expect(actions.contains(.rejected(kind: "target", reason: .targetRefusedKeepOut)))
        let refusal = try #require(Self.statuses(actions).last?.targetRefusal)
        #expect(refusal.zoneName == "pond")
        #expect(refusal.violation == .insideKeepOut)
        // The status comes before the state that refuses, so the ground has the name when it reads the refusal.
        let statusAt = try #require(actions.firstIndex { if case .publishAirspaceStatus = $0 { true } else { false } })
        let stateAt = try #require(actions.firstIndex { if case .publishState = $0 { true } else { false } })
        #expect(statusAt < stateAt)
        #expect(h.machine.target == nil)
        #expect(h.machine.activity == .hovering)
    }

    @Test func outsideEveryInclusionZoneAboveTheCeilingBelowTheFloorAndWithinTheMargin() {
        // A fence and an envelope wider than the airspace, so the airspace's own rules answer.
        var configuration = ControllerConfiguration()
        configuration.geofenceRadiusM = 1000
        configuration.altitude.maxAltitudeM = 100
        var h = ControllerHarness(configuration: configuration)
        h.hovering()
        _ = h.machine.airspace(Self.definition(marginM: 5, ceilingM: 30, floorM: 1), store: true, now: h.now)
        #expect(Self.reasons(h.target(ControllerHarness.point(northM: 400))).last == .targetRefusedOutsideInclusion)
        #expect(Self.statuses(h.target(ControllerHarness.point(northM: 400))).last?.targetRefusal?.zoneName
                == "field")
        #expect(Self.reasons(h.target(ControllerHarness.point(northM: 20), altitudeM: 31)).last
                == .targetRefusedAirspaceCeiling)
        #expect(Self.reasons(h.target(ControllerHarness.point(northM: 20), altitudeM: 0.5)).last
                == .targetRefusedAirspaceFloor)
        #expect(Self.reasons(h.target(ControllerHarness.point(northM: 37))).last == .targetRefusedAirspaceMargin)
        #expect(Self.reasons(h.target(ControllerHarness.point(northM: 20))).last == .newTarget)
    }

    @Test func withoutAnUploadOnlyTheGeofenceAppliesAndWithOneBothDo() {
        var h = ControllerHarness()
        h.hovering()
        #expect(Self.reasons(h.target(ControllerHarness.point(northM: 50))).last == .newTarget)
        var configuration = ControllerConfiguration()
        configuration.geofenceRadiusM = 100
        var fenced = ControllerHarness(configuration: configuration)
        fenced.hovering()
        _ = fenced.machine.airspace(Self.definition(), store: true, now: fenced.now)
        // Inside the field, outside the 100 m circle: the circle still refuses.
        #expect(Self.reasons(fenced.target(ControllerHarness.point(northM: 150))).last == .targetRefusedGeofence)
    }

    @Test func anInvalidUploadIsRefusedWithWhereAndTheHeldAirspaceStays() throws {
        var h = ControllerHarness()
        let good = Self.definition()
        _ = h.machine.airspace(good, store: true, now: h.now)
        var bowtie = good
        bowtie.zones[0].shape = .polygon(rings: [[
            .init(latitudeDeg: 52.0, longitudeDeg: 4.0), .init(latitudeDeg: 52.001, longitudeDeg: 4.001),
            .init(latitudeDeg: 52.0, longitudeDeg: 4.001), .init(latitudeDeg: 52.001, longitudeDeg: 4.0)]])
        let actions = h.machine.airspace(bowtie, store: true, now: h.now)
        #expect(actions.contains(.rejected(kind: "airspace", reason: .airspaceInvalid)))
        #expect(!actions.contains { if case .storeAirspace = $0 { true } else { false } })
        let status = try #require(Self.statuses(actions).last)
        #expect(status.accepted?.checksum == good.checksum)
        #expect(status.uploadRefusal?.checksum == bowtie.checksum)
        #expect(status.uploadRefusal?.reason.contains("zone 'pond'") == true)
        #expect(status.uploadRefusal?.reason.contains("intersects itself") == true)
    }

    @Test func aLongRefusalWithNonASCIINamesStillGoesOut() throws {
        var h = ControllerHarness()
        var bowtie = Self.definition()
        // 121 × "é" (2 bytes each): the refusal's text passes the 240-byte limit inside a two-byte character.
        bowtie.zones[0].name = "x" + String(repeating: "é", count: 121)
        bowtie.zones[0].shape = .polygon(rings: [[
            .init(latitudeDeg: 52.0, longitudeDeg: 4.0), .init(latitudeDeg: 52.001, longitudeDeg: 4.001),
            .init(latitudeDeg: 52.0, longitudeDeg: 4.001), .init(latitudeDeg: 52.001, longitudeDeg: 4.0)]])
        let status = try #require(Self.statuses(h.machine.airspace(bowtie, store: true, now: h.now)).last)
        let reason = try #require(status.uploadRefusal?.reason)
        #expect(reason.utf8.count <= AirspaceStatus.reasonBytes.upperBound)
        #expect(!reason.contains("\u{FFFD}"))
        #expect(throws: Never.self) { _ = try status.encoded() }
    }

    @Test func anUploadThatForbidsTheCurrentTargetDropsItAndHovers() {
        var h = ControllerHarness()
        h.flyingToTarget(northM: 50)
        #expect(h.machine.activity == .flyingToTarget)
        let actions = h.machine.airspace(Self.definition(), store: true, now: h.now)
        #expect(h.machine.target == nil)
        #expect(h.machine.activity == .hovering)
        #expect(Self.reasons(actions).last == .targetRefusedKeepOut)
    }

    @Test func aTargetBehindTheKeepOutZoneIsRefusedForItsLegAndOneBesideItIsFlown() throws {
        var h = ControllerHarness()
        h.hovering()
        _ = h.machine.airspace(Self.definition(marginM: 2), store: true, now: h.now)
        // 100 m north: allowed itself, but the straight leg from home crosses the pond (40–60 m north).
        let behind = h.target(ControllerHarness.point(northM: 100))
        #expect(Self.reasons(behind).last == .targetRefusedAirspaceLeg)
        let refusal = try #require(Self.statuses(behind).last?.targetRefusal)
        #expect(refusal.zoneName == "pond")
        #expect(refusal.violation == .legCrossesZone)
        #expect(h.machine.target == nil)
        // 100 m north and 60 m east: the leg passes 14 m east of the pond's corner, beyond the 2 m margin.
        h.target(ControllerHarness.point(northM: 100, eastM: 60))
        #expect(h.machine.target != nil)
    }

    @Test func aDroneInsideTheMarginMayLeaveOnALegThatEntersNoZone() {
        var h = ControllerHarness()
        h.hovering()
        _ = h.machine.airspace(Self.definition(marginM: 5), store: true, now: h.now)
        // 38 m north: 2 m from the pond's south edge, inside the 5 m margin. A target back south is flown.
        h.position(ControllerHarness.point(northM: 38))
        h.target(ControllerHarness.point(northM: 0, eastM: 20))
        #expect(h.machine.target != nil)
        // One straight through the pond is not.
        let through = h.target(ControllerHarness.point(northM: 100))
        #expect(Self.reasons(through).last == .targetRefusedAirspaceLeg)
    }
}
