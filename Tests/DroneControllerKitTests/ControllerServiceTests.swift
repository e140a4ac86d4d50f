import FlightControl
import InMemoryMQTT
import Logging
import Navigation
import QuadMQTT
import QuadProtocol
import QuadService
import Testing
@testable import DroneControllerKit

/// The controller's service over the in-memory broker: drone state, position, target and navigation in on the
/// bus, flight commands and controller states out, timed by the service's own tick and clocks.
@Suite("drone-controller over the in-memory broker")
struct ControllerServiceTests {
    let broker = InMemoryBroker()
    let drone = DroneID(rawValue: "t1")!
    static let home = GeoPoint(latitudeDeg: 52.5163, longitudeDeg: 13.3777)
    static let goal = Geodesy.destination(from: home, bearingDeg: 0, distanceM: 100)

    func states() throws -> [ControllerState] {
        try broker.published(matching: Topics.controllerState.topic(for: drone)).map {
            try ControllerState(decoding: $0.payload)
        }
    }

    func flightCommands() throws -> [FlightCommand] {
        try broker.published(matching: Topics.flightCommand.topic(for: drone)).map {
            try FlightCommand(decoding: $0.payload)
        }
    }

    /// Publishes `inputs()` every 20 ms until `done` holds (see `eventually`: bounded by time, not rounds); the
    /// controller's subscriptions are made once it runs, so the first rounds may go unheard.
    func publish(_ ground: InMemoryConnection, until done: () throws -> Bool,
                 _ inputs: () throws -> [(String, [UInt8])],
                 sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let reached = try await eventually(poll: .milliseconds(20)) {
            for (topic, payload) in try inputs() {
                try ground.publish(topic: topic, payload: payload, qos: 0, retain: false, expiryS: nil)
            }
            return try done()
        }
        try #require(reached, "the controller never got there", sourceLocation: sourceLocation)
    }

    func droneState(_ controlState: DroneState.ControlState) throws -> (String, [UInt8]) {
        let airborne = controlState != .landed
        let state = DroneState(sequence: 0, timestampUs: WallClock.nowUs(), navdataSequence: 0,
                               stateBits: airborne ? 1 : 0, controlState: controlState, batteryPercent: 80,
                               altitudeM: airborne ? 3 : 0, pitchDeg: 0, rollDeg: 0, yawDeg: 0, velocityXMps: 0,
                               velocityYMps: 0, velocityZMps: 0)
        return (Topics.droneState.topic(for: drone), try state.encoded())
    }

    func position() throws -> (String, [UInt8]) {
        let fix = PositionFix(sequence: 0, timestampUs: WallClock.nowUs(), latitudeDeg: Self.home.latitudeDeg,
                              longitudeDeg: Self.home.longitudeDeg, source: .droneGPS)
        return (Topics.position.topic(for: drone), try fix.encoded())
    }

    func navigation(for target: Target, sequence: UInt32) throws -> (String, [UInt8]) {
        let solution = NavigationSolution(
            sequence: sequence, timestampUs: WallClock.nowUs(), targetSequence: target.sequence,
            targetLatitudeDeg: target.latitudeDeg, targetLongitudeDeg: target.longitudeDeg,
            droneLatitudeDeg: Self.home.latitudeDeg, droneLongitudeDeg: Self.home.longitudeDeg, distanceM: 100,
            bearingDeg: 0, headingDeg: 0, directionDifferenceDeg: 0, positionAgeMs: 0, headingAgeMs: 0, targetAgeMs: 0)
        return (Topics.navigation.topic(for: drone), try solution.encoded())
    }

    @Test(
        "takeoff, a target and navigation in: forward flight commands out; navigation stops: hover (stale-navigation)")
    func fliesToTheTargetAndHoversWhenNavigationGoesStale() async throws {
        var configuration = ControllerConfiguration()
        configuration.staleAfter = .milliseconds(300)
        // Only navigation may go stale here: a busy machine can starve this whole process for tens of seconds, and
        // the link and take-off timers would then end the flight before navigation stops.
        configuration.droneStateTimeout = .seconds(600)
        configuration.takeoffTimeout = .seconds(600)
        let runtime = ServiceRuntime(service: "drone-controller", drone: drone,
                                     connection: broker.connect(clientId: "controller"),
                                     logger: Logger(label: "drone-controller"))
        let running = Task {
            try await runtime.run([ControllerService(runtime: runtime, configuration: configuration)])
        }
        let ground = broker.connect(clientId: "ground")
        try ground.start()
        let command = Topics.command.topic(for: drone)

        try await publish(ground, until: { try states().contains { $0.activity == .takingOff } }) {
            [try droneState(.landed), try position(), (command, Array("takeoff".utf8))]
        }
        try await publish(ground, until: { try states().last?.activity == .hovering }) {
            [try droneState(.hovering), try position()]
        }
        let target = Target(senderId: "ground", sequence: 7, timestampUs: WallClock.nowUs(),
                            latitudeDeg: Self.goal.latitudeDeg, longitudeDeg: Self.goal.longitudeDeg)
        let targetMessage = (Topics.target.topic(for: drone), try target.encoded())
        var sequence: UInt32 = 0
        try await publish(ground, until: { try flightCommands().contains { $0.refMode == .fly && $0.pitchFrac < 0 } }) {
            sequence += 1
            return [try droneState(.hovering), try position(), targetMessage,
                try navigation(for: target, sequence: sequence)]
        }
        #expect(try states().contains { $0.activity == .flyingToTarget })
        let flownCommands = try flightCommands().count

        // No more solutions; navdata and position go on. A starved round can let the position go stale first
        // (`stale-position`): then one fresh solution resumes the flight and navigation stops again.
        try await publish(ground, until: { try states().contains { $0.reason == .staleNavigation } }) {
            var inputs = [try droneState(.hovering), try position()]
            if let last = try states().last, last.activity == .hovering, last.reason == .stalePosition {
                sequence += 1
                inputs.append(try navigation(for: target, sequence: sequence))
            }
            return inputs
        }
        try await publish(ground, until: { try flightCommands().count > flownCommands + 2 }) { [] }
        running.cancel()
        _ = try? await running.value

        let stale = try #require(try states().last { $0.reason == .staleNavigation })
        #expect(stale.activity == .hovering)
        let last = try #require(try flightCommands().last)
        #expect(last.refMode == .fly && last.pitchFrac == 0 && last.rollFrac == 0)
    }
}
