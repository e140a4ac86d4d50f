import Foundation
import ProcessSupport
import QuadProtocol
import Testing

/// Issue 24, item 5, as a shell runs the tools: the common options before the subcommand name reach it (the real
/// executable talks to the broker and the drone those options name).
@Suite("common options before the subcommand, run for real", .offPool, .serialized,
       .enabled(if: TestEnvironment.available("mosquitto")))
struct OptionsFirstSmokeTests {
    static let drone = "optsfirst1"
    let broker: BrokerProcess

    init() throws { broker = try BrokerProcess() }

    func cleanUp() {
        broker.stop()
        try? FileManager.default.removeItem(at: broker.directory)
    }

    func common() -> [String] { ["--broker", broker.address, "--drone", Self.drone] }

    @Test("location-broadcaster --broker H --drone D target -33.8 -70.6 --no-wait: the target reaches that drone")
    func broadcasterTarget() async throws {
        defer { cleanUp() }
        let bus = try await BusRecorder(port: broker.port, id: "optsfirst-bus", filters: ["quad/\(Self.drone)/target"])
        let sent = try await runToEnd("location-broadcaster",
                                      common() + ["target", "-33.8", "-70.6", "--no-wait", "--sender-id", "tester"],
                                      logDirectory: broker.directory, timeoutS: 30)
        #expect(sent.code == 0, "\(sent.output)")
        try await eventually(timeout: TestEnvironment.readinessTimeout, "the target on the bus") {
            !bus.messages(on: "quad/\(Self.drone)/target").isEmpty
        }
        let received = try #require(bus.messages(on: "quad/\(Self.drone)/target").first)
        let target = try Target(decoding: received.message.payload)
        #expect(abs(target.latitudeDeg + 33.8) < 1e-6 && abs(target.longitudeDeg + 70.6) < 1e-6)
        #expect(target.senderId == "tester")
        let conflict = try await runToEnd("location-broadcaster", common() + ["takeoff", "--broker", "127.0.0.1:1"],
                                          logDirectory: broker.directory, timeoutS: 30)
        #expect(conflict.code == 64, "\(conflict.output)")
        #expect(conflict.output.contains("--broker given before 'takeoff'"), "\(conflict.output)")
    }

    @Test("telemetry-logger --broker H --drone D record and navigator --broker H --drone D run come online there",
          arguments: [("telemetry-logger", ["record"]), ("navigator", ["run"])])
    func serviceOnline(service: String, subcommand: [String]) async throws {
        defer { cleanUp() }
        let (watcher, log) = try StatusLog.watching(port: broker.port, clientId: "optsfirst-watcher",
                                                    filters: [("quad/\(Self.drone)/status/#", 1)])
        defer { watcher.shutdown() }
        let own = service == "telemetry-logger" ? ["--dir", broker.directory.path] : []
        let child = try ChildProcess(executable: TestEnvironment.executable(service).path,
                                     arguments: common() + subcommand + own, logDirectory: broker.directory)
        defer { child.stop(signal: SIGTERM) }
        do {
            try await eventually(timeout: TestEnvironment.readinessTimeout, "\(service) online") {
                log.latest(service)?.contains(#""state":"online""#) == true
            }
        } catch {
            throw TestEnvironmentError.timeout("\(service) online for \(Self.drone); it printed:\n\(child.output())")
        }
    }
}
