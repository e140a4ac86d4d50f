@testable import QuadProtocol

/// Representative values of every message, with optionals both nil and set. The first value of each type
/// is also the golden fixture `Fixtures/<fixtureName>.hex`.
enum SampleMessages {
    /// The controller run the golden messages are addressed to (and the golden ControllerState's own).
    static let runId: UInt32 = 1_592_590_337
    static let target = Target(senderId: "phone-anna", sequence: 7, timestampUs: 1_700_000_000_123_456,
                               latitudeDeg: 52.5163, longitudeDeg: 13.3777, altitudeM: 3.5, ttlS: 5,
                               controllerRunId: runId)
    static let command = Command(senderId: "phone-anna", sequence: 8, timestampUs: 1_700_000_000_223_456,
                                 kind: .takeoff, controllerRunId: runId)
    static let navigationSolution = NavigationSolution(
        sequence: 42, timestampUs: 1_700_000_001_000_000, targetSequence: 7, targetLatitudeDeg: 52.5163,
        targetLongitudeDeg: 13.3777, droneLatitudeDeg: 52.5162, droneLongitudeDeg: 13.3775, distanceM: 17.25,
        bearingDeg: 310.5, headingDeg: 300.25, directionDifferenceDeg: 10.25, positionAgeMs: 120,
        headingAgeMs: 30, targetAgeMs: 800)
    static let flightCommand = FlightCommand(sequence: 1000, timestampUs: 1_700_000_001_030_000, refMode: .fly,
                                             flatTrim: false, progressive: true, rollFrac: 0, pitchFrac: -0.25,
                                             gazFrac: 0.5, yawFrac: 0.125, takeoffId: 7)
    static let droneState = DroneState(
        sequence: 5000, timestampUs: 1_700_000_001_040_000, navdataSequence: 123_456, stateBits: 0x8000_0001,
        controlState: .hovering, controlMinorState: 0, batteryPercent: 87, altitudeM: 1.5, pitchDeg: -2.5,
        rollDeg: 1.25, yawDeg: -90, velocityXMps: 0.5, velocityYMps: -0.25, velocityZMps: 0,
        magnetoHeadingDeg: 270.5)
    static let positionFix = PositionFix(
        sequence: 77, timestampUs: 1_700_000_001_050_000, latitudeDeg: 52.5162, longitudeDeg: 13.3775,
        altitudeM: 34.5, headingDeg: 300.25, horizontalAccuracyM: 2.5, satellites: 9, source: .gpsd)
    static let controllerState = ControllerState(
        sequence: 12, timestampUs: 1_700_000_001_060_000, activity: .flyingToTarget, reason: Reason(code: "target"),
        pilotId: "phone-anna", targetLatitudeDeg: 52.5163, targetLongitudeDeg: 13.3777, distanceToTargetM: 17.25,
        runId: runId, targetSequence: 7)
    static let linkStatus = LinkStatus(
        sequence: 3, timestampUs: 1_700_000_001_070_000, connected: true, fallbackHover: false, reason: .ok,
        navdataPerSecond: 200, checksumErrors: 1, malformedPackets: 0, lastNavdataAgeMs: 5, lastCommandAgeMs: 30,
        commandAck: LinkStatus.CommandAck(command: .takeoff, result: .denied, ageMs: 1500))
    /// Format 1.2 as drone-link sends it: no acknowledgement.
    static let linkStatusNoAck = LinkStatus(
        sequence: 4, timestampUs: 1_700_000_001_070_000, connected: true, fallbackHover: false, reason: .ok,
        navdataPerSecond: 200, checksumErrors: 1, malformedPackets: 0, lastNavdataAgeMs: 5, lastCommandAgeMs: 30)
    static let controlClaim = ControlClaim(senderId: "phone-anna", sequence: 1, timestampUs: 1_700_000_000_000_000,
                                           action: .claim, controllerRunId: runId)

    static let groundBeacon = GroundBeacon(senderId: "ground-laptop", sequence: 77,
                                           timestampUs: 1_700_000_000_400_000)

    /// After 1.4 (issue 38): an airspace of a keep-out triangle and an inclusion circle, and the controller's answer.
    static let airspaceDefinition = AirspaceDefinition(
        senderId: "ground-laptop", sequence: 3, timestampUs: 1_700_000_000_500_000, ceilingM: 60, floorM: 2,
        marginM: 5, zones: [
            .init(name: "lake", kind: .keepOut, shape: .polygon(rings: [[
                .init(latitudeDeg: 52.517, longitudeDeg: 13.376), .init(latitudeDeg: 52.517, longitudeDeg: 13.378),
                .init(latitudeDeg: 52.516, longitudeDeg: 13.377)]])),
            .init(name: "field", kind: .inclusion,
                  shape: .circle(centre: .init(latitudeDeg: 52.5163, longitudeDeg: 13.3777), radiusM: 500)),
        ])
    static let airspaceStatus = AirspaceStatus(
        sequence: 4, timestampUs: 1_700_000_000_600_000, accepted: .init(checksum: 0x03A9_A06E, zoneCount: 2),
        targetRefusal: .init(latitudeDeg: 52.5166, longitudeDeg: 13.377, violation: .insideKeepOut, zoneName: "lake"))
    /// The controller's way around 'lake': on its second leg of three (issue 38).
    static let airspaceRoutePlan = AirspaceRoutePlan(
        sequence: 5, timestampUs: 1_700_000_000_700_000, purpose: .target,
        goal: .init(latitudeDeg: 52.5168, longitudeDeg: 13.3785),
        start: .init(latitudeDeg: 52.516, longitudeDeg: 13.376),
        corners: [.init(latitudeDeg: 52.5172, longitudeDeg: 13.3765),
                  .init(latitudeDeg: 52.5172, longitudeDeg: 13.3781)],
        nextCorner: 1, lengthM: 231.5, straightM: 190.25, zoneName: "lake")
    /// The fixtures of the types that came after 1.4: no older-format fixture of theirs exists.
    static let newAfterOneFour: Set<String> = ["airspace-definition", "airspace-status", "airspace-route-plan"]

    /// Format 1.1: `return`.
    static let returnCommand = Command(senderId: "phone-anna", sequence: 9, timestampUs: 1_700_000_000_323_456,
                                       kind: .returnHome, controllerRunId: runId)

    /// (fixture name, message) for every message type, format 1.2 (`Fixtures/<name>.hex`); the same values as
    /// formats 1.1 and 1.0 are in `Fixtures/1.1/` and `Fixtures/1.0/` (decode only: an encoder always writes the
    /// current minor), without what those formats cannot carry (`olderFormat`).
    static let golden: [(String, AnyWireMessage)] = [
        ("target", .target(target)),
        ("command", .command(command)),
        ("navigation-solution", .navigationSolution(navigationSolution)),
        ("flight-command", .flightCommand(flightCommand)),
        ("drone-state", .droneState(droneState)),
        ("position-fix", .positionFix(positionFix)),
        ("controller-state", .controllerState(controllerState)),
        ("link-status", .linkStatus(linkStatus)),
        ("control-claim", .controlClaim(controlClaim)),
        ("command-return", .command(returnCommand)),
        ("link-status-no-ack", .linkStatus(linkStatusNoAck)),
        ("ground-beacon", .groundBeacon(groundBeacon)),
        ("airspace-definition", .airspaceDefinition(airspaceDefinition)),
        ("airspace-status", .airspaceStatus(airspaceStatus)),
        ("airspace-route-plan", .airspaceRoutePlan(airspaceRoutePlan)),
    ]

    /// The fixtures that formats 1.3 and 1.4 have.
    static let goldenOneFour = golden.filter { !newAfterOneFour.contains($0.0) }

    /// The 1.2 fixtures: the same values as a 1.2 sender says them (no takeoff id, no target sequence).
    static let golden12: [(String, AnyWireMessage)] = goldenOneFour.map { ($0.0, $0.1.withoutMinorThree) }

    /// The 1.1 fixtures: the same values as a 1.1 sender says them (`olderFormat`), without the 1.2-only ones.
    static let golden11: [(String, AnyWireMessage)] = golden12
        .filter { !["link-status-no-ack", "ground-beacon"].contains($0.0) }
        .map { ($0.0, $0.1.olderFormat) }

    /// The 1.0 fixtures (no `command-return`: 1.0 has no kind 7).
    static let golden10: [(String, AnyWireMessage)] = golden11.filter { $0.0 != "command-return" }

    /// More values per type: extremes, optionals nil, empty strings, wrap-around numbers.
    static let variants: [AnyWireMessage] = golden.map(\.1) + [
        .target(Target(senderId: "x", sequence: 0, timestampUs: 0, latitudeDeg: -90, longitudeDeg: 180)),
        .target(Target(senderId: String(repeating: "é", count: 32), sequence: .max, timestampUs: .min,
                       latitudeDeg: 90, longitudeDeg: -180, altitudeM: -0.0, ttlS: 0)),
        .command(Command(senderId: "text", sequence: 0, timestampUs: -1, kind: .flatTrim)),
        .command(Command(senderId: "ground-1", sequence: 2, timestampUs: .max, kind: .emergency)),
        .command(Command(senderId: "ground-1", sequence: 3, timestampUs: 3, kind: .returnHome)),
        .navigationSolution(NavigationSolution(
            sequence: 1, timestampUs: 1, targetSequence: 0, targetLatitudeDeg: 0, targetLongitudeDeg: 0,
            droneLatitudeDeg: -89.999, droneLongitudeDeg: 179.999, distanceM: 0, bearingDeg: 0,
            headingDeg: 359.999, directionDifferenceDeg: -180, positionAgeMs: .max, headingAgeMs: 0,
            targetAgeMs: 0)),
        .flightCommand(FlightCommand(sequence: 2, timestampUs: 2, refMode: .land)),
        .flightCommand(FlightCommand(sequence: 4, timestampUs: 4, refMode: .fly, takeoffId: .max)),
        .flightCommand(FlightCommand(sequence: 3, timestampUs: 3, refMode: .emergencyRecover, flatTrim: true,
                                     progressive: true, rollFrac: -1, pitchFrac: 1, gazFrac: -1, yawFrac: 1)),
        .droneState(DroneState(sequence: 1, timestampUs: 1, navdataSequence: 0, stateBits: 0, controlState: .unknown,
                               controlMinorState: .max, batteryPercent: 0, altitudeM: 0, pitchDeg: 0, rollDeg: 0,
                               yawDeg: 0, velocityXMps: 0, velocityYMps: 0, velocityZMps: 0)),
        .droneState(DroneState(sequence: 2, timestampUs: 2, navdataSequence: .max, stateBits: .max,
                               controlState: .looping, batteryPercent: 100, altitudeM: 12, pitchDeg: 30,
                               rollDeg: -30, yawDeg: 179.5, velocityXMps: 5, velocityYMps: 5, velocityZMps: -1,
                               magnetoHeadingDeg: 0)),
        .positionFix(PositionFix(sequence: 1, timestampUs: 1, latitudeDeg: 0, longitudeDeg: 0, source: .manual)),
        .positionFix(PositionFix(sequence: 2, timestampUs: 2, latitudeDeg: 1, longitudeDeg: 2, headingDeg: 0,
                                 satellites: .max, source: .droneGPS)),
        .controllerState(ControllerState(sequence: 1, timestampUs: 1, activity: .landed)),
        .controllerState(ControllerState(sequence: 2, timestampUs: 2, activity: .returningHome,
                                         reason: Reason(code: String(repeating: "r", count: 64)), pilotId: "",
                                         targetLatitudeDeg: 1, targetLongitudeDeg: nil, distanceToTargetM: 0)),
        .linkStatus(LinkStatus(sequence: 1, timestampUs: 1, connected: false, fallbackHover: true,
                               reason: .navdataLost, navdataPerSecond: 0, checksumErrors: .max,
                               malformedPackets: .max, lastNavdataAgeMs: .max, lastCommandAgeMs: .max)),
        .linkStatus(LinkStatus(sequence: 2, timestampUs: 2, connected: true, fallbackHover: false, reason: .ok,
                               navdataPerSecond: 10, checksumErrors: 0, malformedPackets: 0, lastNavdataAgeMs: 0,
                               lastCommandAgeMs: 0, commandAck: .init(command: .setMessageInterval,
                                                                      result: .noAnswer, ageMs: .max))),
        .controlClaim(ControlClaim(senderId: "p", sequence: 9, timestampUs: 9, action: .release)),
        .controlClaim(ControlClaim(senderId: "p", sequence: 10, timestampUs: 10, action: .claim,
                                   controllerRunId: .max)),
        .command(Command(senderId: "ground-1", sequence: 4, timestampUs: 4, kind: .land, controllerRunId: 1)),
        .controllerState(ControllerState(sequence: 3, timestampUs: 3, activity: .landed, runId: .max)),
        .airspaceRoutePlan(.none(sequence: 1, timestampUs: 1)),
        .airspaceRoutePlan(AirspaceRoutePlan(
            sequence: 2, timestampUs: 2, purpose: .returnHome, goal: .init(latitudeDeg: -90, longitudeDeg: 180),
            start: .init(latitudeDeg: 90, longitudeDeg: -180),
            corners: Array(repeating: .init(latitudeDeg: 1, longitudeDeg: 2), count: AirspaceRoutePlan.maxCorners),
            nextCorner: AirspaceRoutePlan.maxCorners, lengthM: 0, straightM: 0,
            zoneName: String(repeating: "é", count: 32))),
    ]
}

extension AnyWireMessage {
    /// What a 1.0/1.1 sender could say: the same message without the 1.2 fields (run ids, the LinkStatus
    /// acknowledgement).
    /// What a 1.2 sender cannot say: the takeoff id and the controller's target sequence (1.3).
    var withoutMinorThree: AnyWireMessage {
        switch self {
        case .flightCommand(var m): m.takeoffId = 0; return .flightCommand(m)
        case .controllerState(var m): m.targetSequence = 0; return .controllerState(m)
        default: return self
        }
    }

    var olderFormat: AnyWireMessage {
        switch self {
        case .linkStatus(var m): m.commandAck = nil; return .linkStatus(m)
        case .target(var m): m.controllerRunId = RunAddress.none; return .target(m)
        case .command(var m): m.controllerRunId = RunAddress.none; return .command(m)
        case .controlClaim(var m): m.controllerRunId = RunAddress.none; return .controlClaim(m)
        case .controllerState(var m): m.runId = RunAddress.none; return .controllerState(m)
        default: return self
        }
    }
}
