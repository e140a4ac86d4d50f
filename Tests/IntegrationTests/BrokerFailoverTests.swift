import BrokerNodes
import Foundation
import ProcessSupport
import Logging
import QuadMQTT
import QuadProtocol
import Testing

/// `--broker a,b` (and QUAD_BROKER): the nodes of a cluster, tried in turn when the connection is lost or refused.
@Suite("Broker failover", .offPool, .serialized, .enabled(if: TestEnvironment.available("mosquitto")))
struct BrokerFailoverTests {
    func watcher(_ broker: BrokerProcess, _ id: String) throws -> (MQTTClient, StatusLog) {
        try StatusLog.watching(port: broker.port, clientId: id, filters: [("quad/failover1/status/#", 1)],
                               logLevel: .critical)
    }

    @Test("a service given two brokers moves to the second when the first dies; its presence appears there")
    func serviceFailsOver() async throws {
        let first = try BrokerProcess()
        let second = try BrokerProcess()
        let (onFirst, firstLog) = try watcher(first, "watch-first")
        let (onSecond, secondLog) = try watcher(second, "watch-second")
        defer { onFirst.shutdown(); onSecond.shutdown() }
        let navigator = try ChildProcess(
            executable: TestEnvironment.executable("navigator").path,
            arguments: ["--broker", "\(first.address),\(second.address)", "--drone", "failover1"],
            logDirectory: first.directory)
        defer { navigator.stop(signal: SIGTERM) }
        try await eventually(timeout: TestEnvironment.readinessTimeout, "online on the first broker") {
            firstLog.latest("navigator")?.contains(#""state":"online""#) == true
        }
        #expect(secondLog.latest("navigator") == nil)
        let killedAt = Date()
        first.stop(signal: SIGKILL)
        // Behaviour, not timing (the figure is printed; on a quiet machine ~1.5 s).
        try await eventually(timeout: TestEnvironment.readinessTimeout, "online on the second broker") {
            secondLog.latest("navigator")?.contains(#""state":"online""#) == true
        }
        print("failover: online on the second broker \(Date().timeIntervalSince(killedAt)) s after the kill")
        #expect(navigator.output().contains("connected to \(second.address) (broker 2 of 2)"), "\(navigator.output())")
    }

    @Test("a location-broadcaster one-shot command given a dead first address (QUAD_BROKER) uses the live second")
    func oneShotSkipsDeadBroker() async throws {
        let live = try BrokerProcess()
        let dead = try freeLoopbackPort()
        let bus = try await BusRecorder(port: live.port, id: "rec-failover", filters: ["quad/failover1/target"])
        let child = try ChildProcess(
            executable: TestEnvironment.executable("location-broadcaster").path,
            arguments: ["target", "52.5", "13.4", "--drone", "failover1", "--no-wait", "--sender-id", "tester"],
            logDirectory: live.directory, environment: ["QUAD_BROKER": "127.0.0.1:\(dead),\(live.address)"])
        let code = child.waitForExit(timeout: TestEnvironment.readinessTimeout) ?? child.stop(signal: SIGKILL)
        #expect(code == 0, "\(child.output())")
        try await eventually(timeout: TestEnvironment.readinessTimeout, "target on the live broker") {
            !bus.messages(on: "quad/failover1/target").isEmpty
        }
    }
}
