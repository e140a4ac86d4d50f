import BrokerNodes
import Foundation
import Navigation
import ProcessSupport
import QuadProtocol
import Testing

/// The product on a 3-node cluster on this machine: a RabbitMQ 3.10 cluster and a NATS 2.9 cluster (JetStream, so
/// the MQTT state lives on a majority). The board's services get the nodes A,B,C; the ground tools B,C,A. One cluster
/// per suite, started by its first test (RabbitMQ's nodes one after the other: `RabbitCluster`), reused. Slow:
/// `make faults` runs it (QUAD_FAULTS=1); each test holds a flight slot (`FlightSlots`, shared with the fault
/// flights) so that a cluster does not boot beside two fault flights.
@Suite("RabbitMQ cluster", .offPool, .serialized,
       .enabled(if: ProcessInfo.processInfo.environment["QUAD_FAULTS"] == "1"
                && TestEnvironment.available("mosquitto_pub") && (TestEnvironment.isCI || RabbitNode.isInstalled)))
struct RabbitClusterTests {
    static let cluster = SuiteBroker {
        let startedAt = Date()
        let cluster = try RabbitCluster.formed(count: 3)
        print("rabbitmq cluster: 3 nodes answering MQTT \(Date().timeIntervalSince(startedAt)) s after the start")
        return cluster
    }
    func checks(_ drone: String) async throws -> ClusterChecks {
        let cluster = try #require(try await onThread { try Self.cluster.get() } as? RabbitCluster)
        // The cluster mirrors the MQTT subscription queues (`RabbitCluster.mqttQueuePolicy`, as deploy/README says):
        // without that policy this failover fails, the services thrown out of every other node.
        return ClusterChecks(broker: cluster, nodes: cluster.nodes, drone: drone, label: "rabbitmq cluster")
    }

    @Test("the whole flight through the cluster: board on node A, ground on node B")
    func flight() async throws { try await FlightSlots.run { try await checks("rcflight").flight() } }

    @Test("the controller's node (A) killed mid-flight: hover, reconnect to another node, the flight goes on")
    func failover() async throws { try await FlightSlots.run { try await checks("rcfail").failover() } }
}

@Suite("NATS cluster", .offPool, .serialized,
       .enabled(if: ProcessInfo.processInfo.environment["QUAD_FAULTS"] == "1"
                && TestEnvironment.available("mosquitto_pub", "nats-server")))
struct NatsClusterTests {
    static let cluster = SuiteBroker {
        let startedAt = Date()
        let cluster = try NatsCluster(count: 3)
        print("nats cluster: 3 nodes answering MQTT \(Date().timeIntervalSince(startedAt)) s after the start")
        return cluster
    }
    func checks(_ drone: String) async throws -> ClusterChecks {
        let cluster = try #require(try await onThread { try Self.cluster.get() } as? NatsCluster)
        return ClusterChecks(broker: cluster, nodes: cluster.nodes, drone: drone, label: "nats cluster",
                             knownFailoverIssue: Self.jetStreamRecovery, failoverIssueIsIntermittent: true)
    }

    /// Seen here (2 shared cores): after a node is killed the survivors drop MQTT connections and answer QoS 1
    /// SUBSCRIBEs with 0x80 ("Unable to add JetStream consumer … timeout") for 10–30 s while JetStream elects new
    /// leaders; the services reconnect and ask again (a refused subscription is retried), but the controller is
    /// back later than 2 s and the flight may not finish in time. One run of three passed all but the 2 s.
    /// The node logs say why: a clean-session CONNECT deletes the old session's consumers and a QoS 1 SUBSCRIBE
    /// creates one, both through JetStream's metadata leader, re-elected ~5 s after the kill (4 s request timeouts
    /// before that). `mqtt { consumer_replicas: 1, consumer_memory_storage: true }` gave the same timeouts (one run).
    /// No client can beat it: every CONNECT reads and writes its session in the replicated `$MQTT_sess` stream, and a
    /// Raft follower waits 4–9 s (nats-server's election timeout, a constant) before replacing a dead leader.
    static let jetStreamRecovery: Comment = """
        NATS 2.9: after a node dies, JetStream refuses MQTT sessions and subscriptions on the others for 10–30 s
        """

    @Test("the whole flight through the cluster: board on node A, ground on node B")
    func flight() async throws { try await FlightSlots.run { try await checks("ncflight").flight() } }

    @Test("the controller's node (A) killed mid-flight: hover, reconnect to another node, the flight goes on")
    func failover() async throws { try await FlightSlots.run { try await checks("ncfail").failover() } }
}

struct ClusterChecks {
    let broker: any TestBroker
    let nodes: [any TestBroker]
    let drone: String
    let label: String
    /// The broker cannot do the failover yet (a known issue, recorded as such: the test fails once it passes).
    var knownFailoverIssue: Comment?
    var failoverIssueIsIntermittent = false
    /// drone-link's command timeout: no fresh flight command for this long → hover.
    static let commandTimeoutS = 0.25

    var ground: [String] { ["--broker", broker.address, "--drone", drone] }

    func run(_ arguments: [String]) async throws -> (code: Int32, output: String) {
        try await runToEnd("location-broadcaster", arguments + ground, logDirectory: broker.directory)
    }

    /// A flight with a pilot on the ground (node B), airborne.
    func airborne() async throws -> (FaultFlight, ChildProcess) {
        let flight = try await FaultFlight(broker: broker, serviceArguments: BrokerChecks.v311, drone: drone)
        let pilot = try ChildProcess(executable: TestEnvironment.executable("location-broadcaster").path,
                                     arguments: ["claim", "--sender-id", "pilot"] + ground, name: "claim",
                                     logDirectory: broker.directory)
        try await eventually(timeout: .seconds(30), "pilot control granted\n\(pilot.output())\n\(flight.logs())") {
            pilot.output().contains("pilot control granted")
        }
        let takeoff = try await run(["takeoff", "--sender-id", "pilot", "--timeout", "20"])
        try #require(takeoff.code == 0, "\(takeoff.output)\n\(flight.logs())")
        try await flight.waitForRow("hovering", timeoutS: 20) { $0.altitudeM > 0.5 && $0.isAirborne }
        try await flight.calibrateClock()
        return (flight, pilot)
    }

    func sendTarget(_ target: GeoPointText) async throws {
        let sent = try await run(["target", target.lat, target.lon, "--sender-id", "pilot", "--no-wait"])
        try #require(sent.code == 0, "\(sent.output)")
    }

    static let boardServices = ["drone-link", "navigator", "drone-controller"]

    func expectServicesOnline(_ status: (code: Int32, output: String), context: String = "",
        sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(status.code == 0, "\(status.output)", sourceLocation: sourceLocation)
        for service in Self.boardServices {
            #expect(status.output.contains(BrokerChecks.serviceLine(service, "online")),
                    "\(service)\n\(status.output)\n\(context)", sourceLocation: sourceLocation)
        }
        #expect(status.output.contains("\n  pilot     pilot\n"), "\(status.output)", sourceLocation: sourceLocation)
    }

    func flight() async throws {
        let startedAt = Date()
        let (flight, pilot) = try await airborne()
        defer { pilot.stop(signal: SIGKILL); flight.stop() }
        #expect(flight.log("drone-controller").contains("connected to \(nodes[0].address)"), "\(flight.logs())")
        #expect(pilot.output().contains("connected to \(nodes[1].address)") || !pilot.output().contains("connected to"),
                "\(pilot.output())")
        expectServicesOnline(try await run(["status"]))
        let target = flight.target(bearingDeg: 45, distanceM: 25)
        try await sendTarget(GeoPointText(target))
        try await flight.waitArrived(at: target)
        let land = try await run(["land", "--sender-id", "pilot", "--timeout", "20"])
        #expect(land.code == 0, "\(land.output)")
        try await flight.waitLanded()
        flight.expectInsideGeofence()
        print("\(label): flight through the cluster \(Int(Date().timeIntervalSince(startedAt))) s")
    }

    func failover() async throws {
        guard let knownFailoverIssue else { return try await failoverFlight() }
        await withKnownIssue(knownFailoverIssue, isIntermittent: failoverIssueIsIntermittent) {
            try await failoverFlight()
        }
    }

    func failoverFlight() async throws {
        let startedAt = Date()
        let (flight, pilot) = try await airborne()
        defer { pilot.stop(signal: SIGKILL); flight.stop() }
        // The node the controller is on now: A, unless a slow first CONNECT moved it on (NATS under load).
        let connectedLines = flight.log("drone-controller").split(separator: "\n")
            .filter { $0.contains("connected to ") }
        let victim = try #require(nodes.indices.last { index in
            connectedLines.last?.contains("connected to \(nodes[index].address) ") == true
        }, "which node is the controller on?\n\(flight.logs())")
        // Whatever happens here, the suite's next test gets a whole cluster again.
        defer { try? nodes[victim].start() }
        let target = flight.target(bearingDeg: 60, distanceM: 35)
        try await sendTarget(GeoPointText(target))
        try await flight.waitMidFlight()

        // The controller's flight commands (10 Hz, not retained) as node B sees them: the first after the kill tells
        // when the controller is connected and publishing again.
        let commandTopic = Topics.flightCommand.topic(for: flight.droneID)
        let commands = try await BusRecorder(port: broker.port, id: "commands-\(drone)", filters: [commandTopic])
        defer { commands.client.shutdown() }
        try await flight.calibrateClock()
        let killS = flight.simNowS()
        let killedAt = Date()
        nodes[victim].stop(signal: SIGKILL)
        // Everyone is back on the other nodes: their `online` (published on every connect) reaches node B.
        try await flight.waitOnline(["drone-controller", "drone-link", "navigator"], since: killedAt, timeoutS: 30)
        let onlineAfterS = flight.bus.messages(on: Topics.status(service: "drone-controller", drone: flight.droneID))
            .first { $0.at >= killedAt }.map { $0.at.timeIntervalSince(killedAt) } ?? .nan
        // Commands sent before the kill may still arrive for a moment: the first after a gap counts.
        let afterKill = commands.messages(on: commandTopic).map { $0.at.timeIntervalSince(killedAt) }.filter { $0 > 0 }
        let firstGap = zip(afterKill, afterKill.dropFirst()).first { $1 - $0 > 0.5 }?.1
        let resumedS = afterKill.first.map { $0 > 0.3 ? $0 : (firstGap ?? .nan) } ?? .nan
        let controllerLog = flight.log("drone-controller")
        let reconnected = nodes.indices.filter { $0 != victim }.contains { index in
            controllerLog.contains("connected to \(nodes[index].address) (broker \(index + 1) of 3)")
        }
        #expect(reconnected, "\(controllerLog)")
        #expect(resumedS <= 2, "the controller's commands again \(resumedS) s after the kill")

        try await flight.waitArrived(at: target)
        let trace = flight.rows(from: killS)
        let hover = try #require(trace.first { $0.pcmdFlag == 0 }, "no hover after the kill\n\(flight.logs())")
        #expect(hover.timeS - killS <= Self.commandTimeoutS + 0.15, "hover \(hover.timeS - killS) s after the kill")
        #expect(trace.contains { $0.timeS > hover.timeS && $0.pcmdFlag == 1 }, "never flew again after the failover")
        #expect(flight.stack.trace().allSatisfy { !$0.linkLost }, "the simulator lost the link\n\(flight.logs())")

        // Presence and pilot control are right on the surviving nodes: everyone online, the pilot still in control.
        // Once in CI (RabbitMQ, 2026-12-03) a status a few seconds after the failover showed drone-link "no status
        // seen" and no link status for 4 s, though its `online` had reached node B after the kill: it was between
        // connections. One status a re-announce later (5 s) must show everyone; drone-link's log goes with a failure.
        var status = try await run(["status"])
        if !Self.boardServices.allSatisfy({ status.output.contains(BrokerChecks.serviceLine($0, "online")) }) {
            print("\(label): failover: not every service online in the first status after it; again in 6 s:\n"
                  + status.output)
            try await Task.sleep(for: .seconds(6))
            status = try await run(["status"])
        }
        expectServicesOnline(status, context: "--- drone-link\n" + String(flight.log("drone-link").suffix(4000)))
        let land = try await run(["land", "--sender-id", "pilot", "--timeout", "20"])
        // A land that was not delivered leaves no landing to wait for (NATS's known issue waited a minute for it).
        try #require(land.code == 0, "the pilot's land after the failover: \(land.output)")
        try await flight.waitLanded()
        flight.expectInsideGeofence()
        print(
            "\(label): failover: hover \(hover.timeS - killS) s after node \(victim + 1) of 3 was killed; "
              + "the controller's commands again after \(resumedS) s, its online seen on node B "
              + "after \(onlineAfterS) s; test \(Int(Date().timeIntervalSince(startedAt))) s")
    }
}

/// A target as the CLI takes it.
struct GeoPointText {
    let lat: String
    let lon: String
    init(_ point: GeoPoint) {
        lat = "\(point.latitudeDeg)"
        lon = "\(point.longitudeDeg)"
    }
}
