import Foundation
import ProcessSupport
import QuadMQTT
import Testing

extension DeploymentTests {
    /// The board's broker bridged to the ground broker over TLS, both exactly as install.sh stages them (the ground
    /// first: it makes the CA and the bridge password; then the board with `--ca-file` and `--bridge-password-file`,
    /// as deploy/README.md says); only ports are remapped. The bridge connects to 127.0.0.1, a name in the ground's
    /// certificate, and checks it.
    @Suite("drone ↔ ground bridge",
           .enabled(if: TestEnvironment.available("bash", "mosquitto", "mosquitto_passwd", "systemctl", "openssl")))
    final class Bridge {
        let droneInstall: StagedInstall
        let groundInstall: StagedInstall
        let ground: DeployedBroker
        let drone: DeployedBroker

        init() throws {
            groundInstall = try StagedInstall(side: "ground")
            let groundResult = try groundInstall.run()
            guard groundResult.exitCode == 0 else {
                throw TestEnvironmentError.missing("ground install: \(groundResult.output)")
            }
            droneInstall = try StagedInstall(side: "drone")
            let droneResult = try droneInstall.run(groundInstall.boardArguments())
            guard droneResult.exitCode == 0 else {
                throw TestEnvironmentError.missing("drone install: \(droneResult.output)")
            }
            ground = try groundInstall.broker()
            drone = try droneInstall.broker(bridgeToPort: ground.port(forListener: 8883))
        }

        deinit {
            drone.stop()
            ground.stop()
            droneInstall.remove()
            groundInstall.remove()
        }

        /// A connection as `account` with its install-generated password, subscribed to `filters`.
        func connect(_ install: StagedInstall, _ broker: DeployedBroker, _ account: String,
                     _ filters: [String] = ["quad/#"]) async throws -> MessageRecorder {
            try await MessageRecorder(port: broker.port, username: account, password: install.password(account),
                                      filters: filters)
        }

        /// Waits until the ground reports the bridge up and a message from the ground reaches the board (the
        /// bridge's SUBSCRIBEs on the ground follow its state message).
        func waitForBridge(groundMonitor: MessageRecorder, droneMonitor: MessageRecorder,
                           broadcaster: MessageRecorder) async throws {
            try await eventually(timeout: TestEnvironment.readinessTimeout,
                                 "bridge state 1 on the ground: \(drone.output())") {
                groundMonitor.payloads("$SYS/broker/connection/drone1-bridge/state").last == "1"
            }
            let probe = "quad/drone1/status/location-broadcaster/probe"
            try await eventually(timeout: TestEnvironment.readinessTimeout, "a probe crosses the bridge") {
                try broadcaster.client.publish(topic: probe, payload: Array("probe".utf8), qos: 0, retain: false)
                try await Task.sleep(for: .milliseconds(100))
                return !droneMonitor.received(probe).isEmpty
            }
        }

        @Test("topics cross in their direction exactly once; flight/command and ground-only status stay home")
        func directions() async throws {
            let groundMonitor = try await connect(groundInstall, ground, "monitor",
                ["quad/#", "$SYS/broker/connection/+/state"])
            let droneMonitor = try await connect(droneInstall, drone, "monitor")
            let broadcaster = try await connect(groundInstall, ground, "location-broadcaster")
            let logger = try await connect(groundInstall, ground, "telemetry-logger")
            let link = try await connect(droneInstall, drone, "drone-link")
            let controller = try await connect(droneInstall, drone, "drone-controller")
            let navigator = try await connect(droneInstall, drone, "navigator")
            let boardLogger = try await connect(droneInstall, drone, "telemetry-logger")
            defer {
                [groundMonitor, droneMonitor, broadcaster, logger, link, controller, navigator, boardLogger]
                    .forEach { $0.shutdown() }
            }
            try await waitForBridge(groundMonitor: groundMonitor, droneMonitor: droneMonitor, broadcaster: broadcaster)

            let down: [(MessageRecorder, String)] = [
                (broadcaster, "target"), (broadcaster, "command"), (broadcaster, "pilot/claim"),
                (broadcaster, "status/location-broadcaster/ground-laptop"), (logger, "log/sync/request"),
                (broadcaster, "ground/beacon"), (broadcaster, "airspace"), (broadcaster, "mission/upload"),
                (broadcaster, "mission/command"),
            ]
            let up: [(MessageRecorder, String, Int32)] = [
                (link, "telemetry/drone", 0), (link, "telemetry/position", 0), (link, "telemetry/link", 1),
                (navigator, "telemetry/navigation", 0), (navigator, "status/navigator", 1),
                (controller, "telemetry/controller", 1), (controller, "status/drone-controller", 1),
                (link, "status/drone-link", 1), (boardLogger, "log/sync/response/logger-12", 1),
                (controller, "airspace/status", 1), (controller, "airspace/held", 1), (controller, "airspace/route", 1),
                (controller, "mission/progress", 1), (controller, "mission/status", 1),
            ]
            let stayOnBoard = [(controller, "flight/command")]
            let stayOnGround = [(logger, "status/telemetry-logger")]
            for (client, path) in down + stayOnGround + stayOnBoard {
                try await client.client.publishAndWait(topic: "quad/drone1/\(path)", payload: Array(path.utf8),
                    retain: false, timeout: TestEnvironment.readinessTimeout)
            }
            for (client, path, qos) in up {
                try await client.client.publishAndWait(topic: "quad/drone1/\(path)", payload: Array(path.utf8),
                    qos: qos,
                                                       retain: false, timeout: TestEnvironment.readinessTimeout)
            }
            let everything = (down + stayOnGround + stayOnBoard).map(\.1) + up.map(\.1)
            try await eventually(timeout: TestEnvironment.readinessTimeout,
                                 "everything published arrived where it belongs") {
                down.allSatisfy { !droneMonitor.received("quad/drone1/\($0.1)").isEmpty }
                    && up.allSatisfy { !groundMonitor.received("quad/drone1/\($0.1)").isEmpty }
            }
            try await Task.sleep(for: .seconds(1))  // time for a duplicate or a leak to show up
            for path in everything {
                let topic = "quad/drone1/\(path)"
                let onBoard = stayOnGround.contains { $0.1 == path } ? 0 : 1
                let onGround = stayOnBoard.contains { $0.1 == path } ? 0 : 1
                #expect(droneMonitor.payloads(topic) == Array(repeating: path, count: onBoard), "board: \(topic)")
                #expect(groundMonitor.payloads(topic) == Array(repeating: path, count: onGround), "ground: \(topic)")
            }
            // The services see what crossed: the controller the target, the broadcaster the telemetry.
            #expect(controller.payloads("quad/drone1/target") == ["target"])
            #expect(controller.payloads("quad/drone1/ground/beacon") == ["ground/beacon"])
            #expect(link.payloads("quad/drone1/flight/command") == ["flight/command"])
            #expect(broadcaster.payloads("quad/drone1/telemetry/drone") == ["telemetry/drone"])
            // The airspace: the upload reaches the controller (and the board's logger), its answer the broadcaster.
            #expect(controller.payloads("quad/drone1/airspace") == ["airspace"])
            #expect(boardLogger.payloads("quad/drone1/airspace") == ["airspace"])
            #expect(broadcaster.payloads("quad/drone1/airspace/status") == ["airspace/status"])
            #expect(broadcaster.payloads("quad/drone1/airspace/held") == ["airspace/held"])
            #expect(broadcaster.payloads("quad/drone1/airspace/route") == ["airspace/route"])
            // The mission: the plan and its commands reach the controller (and the board's logger), its progress
            // the broadcaster.
            #expect(controller.payloads("quad/drone1/mission/upload") == ["mission/upload"])
            #expect(controller.payloads("quad/drone1/mission/command") == ["mission/command"])
            #expect(boardLogger.payloads("quad/drone1/mission/command") == ["mission/command"])
            #expect(broadcaster.payloads("quad/drone1/mission/progress") == ["mission/progress"])
            #expect(broadcaster.payloads("quad/drone1/mission/status") == ["mission/status"])
            // The two loggers, each with its install-generated account, reach each other.
            #expect(boardLogger.payloads("quad/drone1/log/sync/request") == ["log/sync/request"])
            #expect(logger.payloads("quad/drone1/log/sync/response/logger-12") == ["log/sync/response/logger-12"])
        }

        @Test("retained presence crosses with its retain flag, both ways")
        func retainedPresence() async throws {
            let groundMonitor = try await connect(groundInstall, ground, "monitor",
                ["quad/#", "$SYS/broker/connection/+/state"])
            let droneMonitor = try await connect(droneInstall, drone, "monitor")
            let broadcaster = try await connect(groundInstall, ground, "location-broadcaster")
            let controller = try await connect(droneInstall, drone, "drone-controller")
            defer { [groundMonitor, droneMonitor, broadcaster, controller].forEach { $0.shutdown() } }
            try await waitForBridge(groundMonitor: groundMonitor, droneMonitor: droneMonitor, broadcaster: broadcaster)
            let pilot = "quad/drone1/status/location-broadcaster/ground-laptop"
            let service = "quad/drone1/status/drone-controller"
            try await broadcaster.client.publishAndWait(topic: pilot, payload: Array("online".utf8), retain: true,
                timeout: TestEnvironment.readinessTimeout)
            try await controller.client.publishAndWait(topic: service, payload: Array("online".utf8), retain: true,
                timeout: TestEnvironment.readinessTimeout)
            try await eventually(timeout: TestEnvironment.readinessTimeout, "both statuses crossed") {
                !droneMonitor.received(pilot).isEmpty && !groundMonitor.received(service).isEmpty
            }
            droneMonitor.shutdown()
            groundMonitor.shutdown()
            // Late subscribers get the crossed statuses as retained messages from their own broker.
            let lateDrone = try await connect(droneInstall, drone, "monitor")
            let lateGround = try await connect(groundInstall, ground, "monitor")
            defer { lateDrone.shutdown(); lateGround.shutdown() }
            try await eventually(timeout: TestEnvironment.readinessTimeout,
                                 "retained statuses for late subscribers") {
                !lateDrone.received(pilot).isEmpty && !lateGround.received(service).isEmpty
            }
            #expect(lateDrone.received(pilot).map(\.retain) == [true])
            #expect(lateGround.received(service).map(\.retain) == [true])
        }

        @Test("the ground sees the bridge state drop to 0 when the board's broker dies")
        func bridgeStateDrops() async throws {
            let groundMonitor = try await connect(groundInstall, ground, "monitor", ["$SYS/broker/connection/+/state"])
            defer { groundMonitor.shutdown() }
            let state = "$SYS/broker/connection/drone1-bridge/state"
            try await eventually(timeout: .seconds(15),
                "bridge up: \(drone.output())") { groundMonitor.payloads(state).last == "1" }
            drone.stop(signal: SIGKILL)
            try await eventually(timeout: .seconds(30),
                "bridge state 0 on the ground") { groundMonitor.payloads(state).last == "0" }
        }

        /// The env files install.sh staged, with the broker port and the password path moved into the test's tree.
        /// drone-link is left out: its env file points it at the real drone (192.168.1.1).
        @Test("navigator and drone-controller run from their installed env files; the ground sees them online",
              arguments: ["navigator", "drone-controller"])
        func serviceFromEnvFile(service: String) async throws {
            let groundMonitor = try await connect(groundInstall, ground, "monitor", ["quad/+/status/+"])
            defer { groundMonitor.shutdown() }
            var environment = Dictionary(
                DeploymentTests.keyValues(try droneInstall.text("/etc/quadcopter/\(service).env"))
                    .map { ($0.key, $0.value) },
                uniquingKeysWith: { $1 })
            environment["QUAD_BROKER"] = "127.0.0.1:\(drone.port)"
            let passwordFile = try #require(environment["QUAD_PASSWORD_FILE"])
            environment["QUAD_PASSWORD_FILE"] = droneInstall.url(passwordFile).path
            let child = try ChildProcess(executable: TestEnvironment.executable(service).path, arguments: [],
                                         logDirectory: drone.directory, environment: environment)
            defer { child.stop() }
            let status = "quad/drone1/status/\(service)"
            try await eventually(timeout: TestEnvironment.readinessTimeout,
                                 "\(service) online on the ground: \(child.output())") {
                groundMonitor.payloads(status).last?.contains(#""state":"online""#) == true
            }
            #expect(child.isRunning, "\(child.output())")
        }
    }
}
