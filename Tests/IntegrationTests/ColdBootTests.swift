import Foundation
import Logging
import ProcessSupport
import QuadMQTT
import Synchronization
import Testing

/// Issue 24, item 3: boot in any order. A service started before mosquitto (a board at power-on) has its session
/// ≤ 2 s after the broker accepts connections, however long the broker was down. libmosquitto never retries a
/// first connect that failed, so before the fix this took 12–15 s (the supervisor's restart).
@Suite("Cold boot: services started before the broker", .offPool, .serialized,
       .enabled(if: TestEnvironment.available("mosquitto")))
struct ColdBootTests {
    static let services = ["navigator", "drone-controller", "drone-link", "telemetry-logger"]
    static let drone = "coldboot1"
    /// The requirement is 2 s; a loaded 2-core CI machine gets twice that. Judged on the broker's own clock (its log
    /// stamps, whole seconds: a difference of 3 is less than 4 s), from the line that says it runs to the session's
    /// line, so how late the test itself notices either is no part of it. The test's own figures are printed
    /// (BENCHMARKS.md keeps them: timings belong to benchmarks, this only catches the 12–15 s of the bug).
    static let boundStampS = 3
    /// The broker logs its start (`information`) with the connections (`notice`).
    static let brokerConfig = "log_type information"

    /// Whole seconds on the broker's clock from its `running` line to the first session of a client whose id ends
    /// with `clientIdSuffix`; nil while there is none.
    static func brokerSessionDelayS(_ broker: BrokerProcess, clientIdSuffix: String) -> Int? {
        let lines = (broker.child?.output() ?? "").split(separator: "\n")
        func stamp(_ line: Substring) -> Int? { line.split(separator: ":").first.flatMap { Int($0) } }
        guard let running = lines.first(where: { $0.contains(" running") }).flatMap(stamp),
              let session = lines.first(where: {
                  $0.contains("New client connected") && $0.contains("\(clientIdSuffix) (")
              }).flatMap(stamp) else { return nil }
        return session - running
    }

    @Test("each board service started 0.3 s or 5 s before mosquitto is online soon after it accepts",
          arguments: [0.3, 5.0])
    func servicesBeforeBroker(headStartS: Double) async throws {
        let broker = try BrokerProcess(extraConfig: Self.brokerConfig)
        broker.stop()
        defer {
            broker.stop()
            try? FileManager.default.removeItem(at: broker.directory)
        }
        let children = try Self.services.map { try start($0, broker: broker) }
        defer { children.forEach { $0.stop(signal: SIGTERM) } }
        let spawned = ContinuousClock.now
        // Blocking, not Task.sleep: a test pool starved by other suites resumed that 14–28 s late for 0.3 s.
        usleep(UInt32(headStartS * 1_000_000))
        try broker.start()
        let accepted = try #require(broker.acceptingSince)
        let (watcher, log) = try StatusLog.watching(port: broker.port, clientId: "coldboot-watcher",
                                                    filters: [("quad/\(Self.drone)/status/#", 1)])
        defer { watcher.shutdown() }
        for (service, child) in zip(Self.services, children) {
            do {
                try await eventually(timeout: TestEnvironment.readinessTimeout, "\(service) online") {
                    log.latest(service)?.contains(#""state":"online""#) == true
                }
            } catch {
                throw TestEnvironmentError.timeout("\(service) online; it printed:\n\(child.output())")
            }
        }
        var figures: [String] = []
        for (service, child) in zip(Self.services, children) {
            // An upper bound: the retained `online` reaches the watcher once it subscribed, after the service did.
            // The watcher's first message for the service is that `online` (the broker was new).
            let delayS = try #require(log.firstReceivedAt(service)) - accepted
            figures.append("\(service) \(Self.format(delayS))")
            // A service's client id ends with its drone and pid (`navigator-coldboot1-4711`).
            let stampS = Self.brokerSessionDelayS(broker, clientIdSuffix: "-\(Self.drone)-\(child.pid)")
            let brokerLog = broker.child?.output() ?? ""
            #expect(stampS.map { $0 <= Self.boundStampS } == true,
                    """
                        \(service): session \(stampS.map(String.init) ?? "never") s after the broker ran, by its log:
                        \(brokerLog)
                        it printed:
                        \(child.output())
                        """)
        }
        print("cold boot: head start \(headStartS) s (in fact \(Self.format(accepted - spawned))), online after the "
              + "broker accepted: " + figures.joined(separator: ", "))
    }

    /// Outage shorter than the supervisor's restart: libmosquitto's own reconnect (every 1 s, no backoff growth).
    /// Longer: the supervisor restarted the loop while the broker was down, and that restart's connect failed —
    /// the case that waited for the next restart before the fix (here 6 s later, so past the bound; 15 s by default).
    @Test("a client whose broker was down finds it again soon after it accepts",
          arguments: [(outageS: 2.5, restartAfterS: 15.0), (outageS: 7.0, restartAfterS: 6.0)])
    func brokerBack(outageS: Double, restartAfterS: Double) async throws {
        let broker = try BrokerProcess(extraConfig: Self.brokerConfig)
        defer {
            broker.stop()
            try? FileManager.default.removeItem(at: broker.directory)
        }
        var configuration = MQTTConfiguration(port: Int32(broker.port), clientId: "coldboot-outage")
        configuration.supervisorRestartAfterS = restartAfterS
        let connectedAt = Mutex<ContinuousClock.Instant?>(nil)
        let client = try MQTTClient(configuration: configuration, logger: Logger(label: "coldboot-outage")) { _ in
            connectedAt.withLock { $0 = .now }
        }
        defer { client.shutdown() }
        // The connection's events as they came, not its state when polled: a poll starved by a busy machine could
        // miss a short disconnection, and a failure can then say what the client went through.
        let events = Mutex<[MQTTConnectionEvent]>([])
        let stream = client.events()
        let recorder = Task { for await event in stream { events.withLock { $0.append(event) } } }
        defer { recorder.cancel() }
        try client.start()
        try await eventually(timeout: TestEnvironment.readinessTimeout, "connected") { client.isConnected }
        let stopped = broker.child
        broker.stop()
        try await eventually(timeout: TestEnvironment.readinessTimeout, """
            a disconnection after the broker stopped (its exit code \(stopped?.exitCode().map(String.init) ?? "none"),
            connected now: \(client.isConnected), the client's events: \(events.withLock { $0 }));
            the broker's log:
            \(stopped?.output() ?? "")
            """) {
            events.withLock { $0.contains { if case .disconnected = $0 { true } else { false } } }
        }
        connectedAt.withLock { $0 = nil }
        try await Task.sleep(for: .seconds(outageS))
        try broker.start()
        let accepted = try #require(broker.acceptingSince)
        try await eventually(timeout: TestEnvironment.readinessTimeout, "connected again") {
            connectedAt.withLock { $0 } != nil
        }
        let delayS = try #require(connectedAt.withLock { $0 }) - accepted
        print("cold boot: broker down \(outageS) s (loop restart after \(restartAfterS) s), "
              + "connected \(Self.format(delayS)) after it accepted")
        let stampS = Self.brokerSessionDelayS(broker, clientIdSuffix: "coldboot-outage")
        let brokerLog = broker.child?.output() ?? ""
        #expect(stampS.map { $0 <= Self.boundStampS } == true,
                "session \(stampS.map(String.init) ?? "never") s after the broker ran, by its log:\n\(brokerLog)")
    }

    private func start(_ service: String, broker: BrokerProcess) throws -> ChildProcess {
        // The logger records what it hears: keep its files in the broker's directory, removed at the end.
        let logDir = service == "telemetry-logger" ? ["--dir", broker.directory.path] : []
        return try ChildProcess(executable: TestEnvironment.executable(service).path,
                                arguments: ["--broker", broker.address, "--drone", Self.drone] + logDir,
                                logDirectory: broker.directory)
    }

    private static func format(_ duration: Duration) -> String {
        "\(Int((duration / .milliseconds(1)).rounded())) ms"
    }
}
