import BrokerNodes
import Foundation
import ProcessSupport
import Logging
import QuadMQTT
import QuadProtocol
import Testing

/// Every service announces itself with a retained `online` status and leaves `offline` behind — by its
/// goodbye on SIGTERM (exit 0), or by the broker's Last Will on SIGKILL.
@Suite("Service presence", .offPool, .serialized, .enabled(if: TestEnvironment.available("mosquitto")))
struct ServicePresenceTests {
    static let services = ["navigator", "drone-controller", "drone-link", "telemetry-logger", "location-broadcaster"]
    let broker: BrokerProcess

    init() throws { broker = try BrokerProcess() }

    func start(_ service: String, _ extra: [String] = []) throws -> ChildProcess {
        // location-broadcaster announces itself only in its long-running modes, under its sender id; the logger
        // records what it hears: keep its files out of the working directory.
        let mode = service == "location-broadcaster" ? ["claim", "--sender-id", service] : []
        let logDir = service == "telemetry-logger" ? ["--dir", broker.directory.path] : []
        return try ChildProcess(executable: TestEnvironment.executable(service).path,
                                arguments: mode + ["--broker", broker.address, "--drone", "presence1"] + logDir + extra,
                                logDirectory: broker.directory)
    }

    func statusWatcher() throws -> (MQTTClient, StatusLog) {
        try StatusLog.watching(port: broker.port, clientId: "watcher-\(UInt32.random(in: 0...UInt32.max))",
                               filters: [("quad/presence1/status/#", 1)])
    }

    @Test("SIGTERM: online, then offline and exit 0", arguments: services)
    func gracefulStop(service: String) async throws {
        let (watcher, log) = try statusWatcher()
        defer { watcher.shutdown() }
        let child = try start(service)
        do {
            try await eventually(timeout: TestEnvironment.readinessTimeout, "\(service) online") {
                log.latest(service)?.contains(#""state":"online""#) == true
            }
        } catch {
            throw TestEnvironmentError.timeout("\(service) online; it printed:\n\(child.output())")
        }
        #expect(child.stop(signal: SIGTERM) == 0, "\(child.output())")
        try await eventually(timeout: TestEnvironment.readinessTimeout,
            "\(service) offline") { log.latest(service)?.contains(#""state":"offline""#) == true }
    }

    /// RabbitMQ 3.10 hands retained messages only to subscriptions without wildcards (and keeps them on the node that
    /// got them): simulated here by clearing the retained copy before the reader subscribes.
    @Test("without the retained copy a reader still sees the service online within one re-announce interval")
    func reannounced() async throws {
        let child = try start("navigator")
        defer { child.stop(signal: SIGTERM) }
        let (watcher, log) = try statusWatcher()
        try await eventually(timeout: TestEnvironment.readinessTimeout, "online") {
            log.latest("navigator")?.contains(#""state":"online""#) == true
        }
        watcher.shutdown()
        let bus = try await BusRecorder(port: broker.port, id: "clear-retained", filters: [])
        try await bus.publish("quad/presence1/status/navigator", [], retain: true)
        let clearedAt = Date()
        let (late, lateLog) = try statusWatcher()
        defer { late.shutdown() }
        // The re-announce window starts once the late reader is subscribed: how long a loaded machine takes to
        // connect it is no part of the service's interval.
        try await eventually(timeout: TestEnvironment.readinessTimeout, "the late reader subscribed") {
            late.subscriptionsAnswered
        }
        let status = try await runToEnd("location-broadcaster", ["status", "--broker", broker.address,
                                                                 "--drone", "presence1"],
                                        logDirectory: broker.directory, timeoutS: 30)
        #expect(status.code == 0, "\(status.output)")
        #expect(status.output.contains("  navigator              online"), "\(status.output)")
        #expect(status.output.contains("  drone-link             unknown  (no status seen)"), "\(status.output)")
        // Behaviour, not timing: the late subscriber hears a live re-announce (about one interval after the clear).
        try await eventually(timeout: .seconds(2 * ServiceStatus.reannounceIntervalS),
                             "the late subscriber saw it live") {
            lateLog.latest("navigator")?.contains(#""state":"online""#) == true
        }
        print(
            "presence: re-announce heard \(Date().timeIntervalSince(clearedAt)) s after the retained copy was cleared")
    }

    /// The re-announce every 5 s comes from the MQTT client's supervisor thread. As a task sleeping on the Swift
    /// pool it woke a pool that nothing else uses in a board service's steady state, and libdispatch retires an idle
    /// pool thread after 5 s: each re-announce started a new thread (ld.so's and libc's thread start-up pages kept
    /// resident: 0.3–1.2 MiB of RSS, BENCHMARKS.md).
    @Test("re-announcing starts no thread: a board service's threads stay the same over two re-announces",
          arguments: ["drone-link", "navigator", "drone-controller", "mavlink-link"])
    func reannounceStartsNoThread(service: String) async throws {
        let (watcher, log) = try statusWatcher()
        defer { watcher.shutdown() }
        let listen = service == "mavlink-link" ? ["--listen", "127.0.0.1:\(try freeLoopbackPort(udp: true))"] : []
        let child = try start(service, ["--log-level", "info"] + listen)
        defer { child.stop(signal: SIGTERM) }
        // Start-up is over once its pages are given back (2 s after connecting); the pool is idle from then on.
        try await eventually(timeout: TestEnvironment.readinessTimeout, "\(service)'s start-up pages given back") {
            child.output().contains("start-up pages given back")
        }
        let threads = { () -> Set<String> in
            let ids = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(child.pid)/task")) ?? []
            return Set(ids)
        }
        let before = threads()
        let heard = log.count(service)
        try await eventually(timeout: .seconds(4 * ServiceStatus.reannounceIntervalS), "two re-announces") {
            log.count(service) >= heard + 2
        }
        let started = threads().subtracting(before)
        #expect(!before.isEmpty)
        #expect(started.isEmpty, "\(service) started \(started.count) threads meanwhile (\(before.count) before)")
    }

    @Test("SIGKILL: the broker publishes the Last Will, retained")
    func lastWill() async throws {
        let child = try start("navigator")
        let (watcher, log) = try statusWatcher()
        try await eventually(timeout: TestEnvironment.readinessTimeout, "online") {
            log.latest("navigator")?.contains(#""state":"online""#) == true
        }
        watcher.shutdown()
        child.stop(signal: SIGKILL)
        // A client connecting afterwards sees the retained offline left by the will.
        try await Task.sleep(for: .milliseconds(300))
        let (late, lateLog) = try statusWatcher()
        defer { late.shutdown() }
        try await eventually(timeout: TestEnvironment.readinessTimeout, "retained offline") {
            lateLog.latest("navigator")?.contains(#""state":"offline""#) == true
        }
    }
}
