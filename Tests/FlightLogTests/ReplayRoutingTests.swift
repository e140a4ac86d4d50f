import QuadProtocol
import Testing
@testable import FlightLog

@Suite("Replay routing: never the live topics by default")
struct ReplayRoutingTests {
    static func record(_ topic: String, retain: Bool = false) throws -> LogRecord {
        try LogRecord(receiveTimeUs: 1_700_000_000_000_000, topic: topic, payload: Array("x".utf8), retain: retain,
                      qos: 1)
    }

    static let liveTopics = ["quad/drone1/command", "quad/drone1/target", "quad/drone1/pilot/claim",
                             "quad/drone1/telemetry/drone", "quad/drone1/telemetry/position",
                             "quad/drone1/telemetry/controller", "quad/drone1/status/drone-controller"]

    @Test("by default every topic, presence included, goes under replay/")
    func defaultIsReplayRoot() throws {
        let routing = ReplayRouting(destination: .replayRoot)
        for topic in Self.liveTopics {
            #expect(routing.route(try Self.record(topic, retain: true)) == .publish(topic: "replay/\(topic)"))
        }
        #expect(routing.liveDrones(try Self.liveTopics.map { try Self.record($0) }).isEmpty)
    }

    @Test("--drone-override rewrites the drone level, still under replay/")
    func override() throws {
        let routing = ReplayRouting(destination: .replayRoot, droneOverride: DroneID(rawValue: "sim2"))
        #expect(routing.route(try Self.record("quad/drone1/command")) == .publish(topic: "replay/quad/sim2/command"))
    }

    @Test("--live keeps the recorded topics but never presence, and lists the drones to check")
    func live() throws {
        let routing = ReplayRouting(destination: .live)
        #expect(routing.route(try Self.record("quad/drone1/command")) == .publish(topic: "quad/drone1/command"))
        guard case .skip = routing.route(try Self.record("quad/drone1/status/drone-controller")) else {
            Issue.record("presence replayed live")
            return
        }
        guard case .skip = routing.route(try Self.record("elsewhere/x")) else {
            Issue.record("a non-quad topic replayed live")
            return
        }
        let records = try ["quad/b/command", "quad/a/target", "quad/b/status/navigator"].map { try Self.record($0) }
        #expect(routing.liveDrones(records).map(\.rawValue) == ["a", "b"])
    }

    @Test("a topic the broker would refuse is skipped", arguments: ["quad/+/command", "quad/#", "a\0b"])
    func unpublishable(topic: String) throws {
        guard case .skip = ReplayRouting(destination: .replayRoot).route(try Self.record(topic)) else {
            Issue.record("\(topic) routed")
            return
        }
    }

    @Test("the live gate: online refuses, offline or no presence allows, unreadable refuses")
    func gate() throws {
        let drone = try #require(DroneID(rawValue: "drone1"))
        func presence(_ state: ServiceStatus.State) -> [UInt8] {
            ServiceStatus(state: state, service: "drone-controller", version: "1", startedAt: 1, pid: 2).encodedJSON()
        }
        let refusal = LiveReplayGate.refusal(drone: drone, retainedPresence: presence(.online))
        #expect(refusal?.contains("drone1's drone-controller is online") == true, "\(refusal ?? "nil")")
        #expect(LiveReplayGate.refusal(drone: drone, retainedPresence: presence(.offline)) == nil)
        #expect(LiveReplayGate.refusal(drone: drone, retainedPresence: nil) == nil)
        #expect(LiveReplayGate.refusal(drone: drone, retainedPresence: Array("garbage".utf8)) != nil)
    }
}
