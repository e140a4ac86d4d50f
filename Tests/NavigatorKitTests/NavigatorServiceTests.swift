import InMemoryMQTT
import Logging
import QuadMQTT
import QuadProtocol
import QuadService
import Testing
@testable import NavigatorKit

/// The navigator's service over the in-memory broker: what goes in on the bus and what comes out.
@Suite("navigator over the in-memory broker")
struct NavigatorServiceTests {
    let broker = InMemoryBroker()
    let drone = DroneID(rawValue: "t1")!

    /// Pariser Platz, and a target 45 m north of it (docs/flying.md's run by hand).
    static let start = (lat: 52.5163, lon: 13.3777)
    static let target = (lat: 52.5167, lon: 13.3777)

    func solutions() throws -> [NavigationSolution] {
        try broker.published(matching: Topics.navigation.topic(for: drone)).map {
            try NavigationSolution(decoding: $0.payload)
        }
    }

    /// Publishes `inputs` until the navigator has answered (its subscriptions are made once it runs; see
    /// `eventually`: bounded by time, not rounds).
    func publishUntilSolved(_ ground: InMemoryConnection, _ inputs: [(String, [UInt8])]) async throws {
        let solved = try await eventually(poll: .milliseconds(10)) {
            for (topic, payload) in inputs {
                try ground.publish(topic: topic, payload: payload, qos: 1, retain: false, expiryS: nil)
            }
            return try !solutions().isEmpty
        }
        try #require(solved, "the navigator never answered")
    }

    /// The navigator running over the broker, and a ground connection to talk to it.
    func startNavigator() throws -> (Task<Void, any Error>, InMemoryConnection) {
        let runtime = ServiceRuntime(service: "navigator", drone: drone, connection: broker.connect(clientId: "nav"),
                                     logger: Logger(label: "navigator"))
        let running = Task {
            try await runtime.run([NavigatorService(runtime: runtime, configuration: .init())])
        }
        let ground = broker.connect(clientId: "ground")
        try ground.start()
        return (running, ground)
    }

    func position(heading: Float) throws -> [UInt8] {
        try PositionFix(sequence: 1, timestampUs: 0, latitudeDeg: Self.start.lat, longitudeDeg: Self.start.lon,
                    headingDeg: heading, source: .droneGPS).encoded()
    }

    @Test("a target and a position in: a navigation solution out, with distance, bearing and direction difference")
    func targetAndPositionGiveASolution() async throws {
        let (running, ground) = try startNavigator()
        let target = Array(#"{"lat":52.5167,"lon":13.3777}"#.utf8)
        try await publishUntilSolved(ground, [(Topics.position.topic(for: drone), try position(heading: 90)),
                                              (Topics.target.topic(for: drone), target)])
        running.cancel()
        _ = try? await running.value

        let solution = try #require(try solutions().last)
        #expect(abs(solution.distanceM - 44.5) < 1)
        #expect(abs(solution.bearingDeg) < 0.5 || abs(solution.bearingDeg - 360) < 0.5)
        // Facing east, the target is 90° to the left.
        #expect(abs(solution.directionDifferenceDeg + 90) < 0.5)
        #expect(solution.targetLatitudeDeg == Self.target.lat)
        #expect(solution.droneLatitudeDeg == Self.start.lat)
    }

    @Test("a retained target is not followed (it predates the navigator): no solution")
    func retainedTargetIsIgnored() async throws {
        let (running, ground) = try startNavigator()
        let target = Array(#"{"lat":52.5167,"lon":13.3777}"#.utf8)
        // The same inputs, but the target retained: the navigator never solves.
        try ground.publish(topic: Topics.target.topic(for: drone), payload: target, qos: 1, retain: true, expiryS: nil)
        for _ in 0..<50 {
            try ground.publish(topic: Topics.position.topic(for: drone), payload: try position(heading: 0), qos: 1,
                               retain: false, expiryS: nil)
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(try solutions().isEmpty)
        // The control case: a live target now gives a solution, so the silence above was the retained flag.
        try await publishUntilSolved(ground, [(Topics.position.topic(for: drone), try position(heading: 0)),
                                              (Topics.target.topic(for: drone), target)])
        running.cancel()
        _ = try? await running.value
        #expect(try !solutions().isEmpty)
    }
}
