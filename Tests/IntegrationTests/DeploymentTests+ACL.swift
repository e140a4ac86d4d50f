import BrokerNodes
import Foundation
import Testing

extension DeploymentTests {
    /// Each side's broker from deploy/<side>/mosquitto.conf and quadcopter.acl, with a password file made by
    /// `mosquitto_passwd -b` for the accounts install.sh creates.
    @Suite("broker ACLs",
           .enabled(if: TestEnvironment.available("mosquitto", "mosquitto_passwd", "mosquitto_pub", "openssl")))
    struct BrokerACL {
        static let droneUsers = StagedInstall.droneServices + ["mavlink-link", "monitor"]
        static let groundUsers = StagedInstall.groundServices + ["drone1-bridge", "monitor", "map"]
        /// Test-only account appended to the test copy of the ACL: reads everything, to see what got through.
        static let observer = "test-observer"

        static func passwords(_ users: [String]) -> [String: String] {
            Dictionary(uniqueKeysWithValues: (users + [observer]).map { ($0, "pw-\($0)") })
        }

        static func broker(_ side: String) throws -> (DeployedBroker, [String: String]) {
            let users = side == "drone" ? droneUsers : groundUsers
            let passwords = passwords(users)
            let directory = try TestEnvironment.temporaryDirectory("passwd-\(side)")
            let passwordFile = directory.appendingPathComponent("quadcopter.passwd")
            try "".write(to: passwordFile, atomically: true, encoding: .utf8)
            for (user, password) in passwords.sorted(by: { $0.key < $1.key }) {
                let result = try runCommand(TestEnvironment.requireTool("mosquitto_passwd"),
                                            ["-b", passwordFile.path, user, password], logDirectory: directory)
                guard result.exitCode == 0 else {
                    throw TestEnvironmentError.missing("mosquitto_passwd: \(result.output)")
                }
            }
            let acl = try DeploymentTests.deployFile("\(side)/quadcopter.acl") + "\nuser \(observer)\ntopic read #\n"
            // The drone's bridge cannot connect to anything here; leave it pointing at a closed loopback port.
            let config = try DeploymentTests.deployFile("\(side)/mosquitto.conf")
                .replacingOccurrences(of: "@BRIDGE_PASSWORD@", with: "unused")
            // The certificates the configuration names, made as install.sh makes them.
            let tls = try RadioTLS(in: directory)
            let certificates = side == "drone"
                ? [StagedInstall.boardCA: tls.caCert]
                : [StagedInstall.groundCertificate: tls.serverCert, StagedInstall.groundKey: tls.serverKey]
            var files = ["/etc/mosquitto/quadcopter.passwd": try String(contentsOf: passwordFile, encoding: .utf8),
                         "/etc/mosquitto/conf.d/quadcopter.acl": acl]
            for (path, url) in certificates { files[path] = try String(contentsOf: url, encoding: .utf8) }
            let broker = try DeployedBroker(
                label: "acl-\(side)", config: config, files: files,
                bridgeToPort: side == "drone" ? try freeLoopbackPort() : nil)
            // The CA a client of the laptop trusts (/etc/quadcopter/quadcopter-ca.crt): `caFile(broker)`; the board's
            // configuration names its copy already.
            if side == "ground" { try FileManager.default.copyItem(at: tls.caCert, to: caFile(broker)) }
            return (broker, passwords)
        }

        static func caFile(_ broker: DeployedBroker) -> URL {
            broker.directory.appendingPathComponent("quadcopter-ca.crt")
        }

        /// The ground broker's map over TLS: quadcopter-map-tls.service's relay in front of its 9001 listener.
        static func mapRelay(_ broker: DeployedBroker) throws -> MapTLSRelay {
            func copy(_ installed: String) -> URL {
                broker.directory.appendingPathComponent(URL(fileURLWithPath: installed).lastPathComponent)
            }
            return try MapTLSRelay(webSocketsPort: try broker.port(forListener: 9001),
                                   certificate: copy(StagedInstall.groundCertificate),
                                   key: copy(StagedInstall.groundKey), directory: broker.directory)
        }

        static func writes(_ users: [String], _ topics: [String]) -> [WriteAttempt] {
            users.flatMap { user in topics.map { WriteAttempt(user: user, topic: "quad/drone1/\($0)") } }
        }

        /// Publishes, then expects the observer to have seen exactly the allowed writes, each once.
        static func check(_ broker: DeployedBroker, _ passwords: [String: String], denied: [WriteAttempt],
                          allowed: [WriteAttempt], refusedTopics: [String]) async throws {
            let probe = try await ACLProbe(port: broker.port, passwords: passwords, observer: observer)
            defer { probe.shutdown() }
            for topic in refusedTopics {
                for user in [nil, "monitor"] {
                    let refused = try probe.refusedConnection(user: user, topic: "quad/drone1/\(topic)",
                                                              logDirectory: broker.directory)
                    #expect(refused.exitCode != 0, "\(user ?? "anonymous") connected: \(refused.output)")
                }
            }
            var seen = try await probe.publish(denied: denied, allowed: allowed, brokerLog: { broker.output() })
            // An allowed write sent twice (no acknowledgement in time, see ACLProbe) may arrive twice: count it once.
            for attempt in probe.resent where seen[attempt] == 2 { seen[attempt] = 1 }
            let expected = Dictionary(uniqueKeysWithValues: allowed.map { ($0, 1) })
            #expect(seen == expected,
                "got through: \(seen.keys.filter { expected[$0] == nil }); log: \(broker.output())")
        }

        @Test("board: target, command and pilot claim only arrive over the bridge; only drone-controller flies")
        func droneInputs() async throws {
            let (broker, passwords) = try Self.broker("drone")
            let inputs = ["target", "command", "pilot/claim", "mission/upload", "mission/command"]
            try await Self.check(
                broker, passwords,
                denied: Self.writes(Self.droneUsers, inputs)
                    + Self.writes(["navigator", "drone-link", "mavlink-link", "monitor"], ["flight/command"]),
                allowed: Self.writes(["drone-controller"], ["flight/command"]),
                refusedTopics: inputs + ["flight/command"])
        }

        @Test("board: each service writes its own status and telemetry, nobody else's")
        func droneOwnTopics() async throws {
            let (broker, passwords) = try Self.broker("drone")
            let own: [String: [String]] = [
                "navigator": ["status/navigator", "telemetry/navigation"],
                "drone-controller": ["status/drone-controller", "telemetry/controller", "airspace/held",
                                     "airspace/route", "mission/progress", "mission/status", "mission/held"],
                "drone-link": ["status/drone-link", "telemetry/drone", "telemetry/position", "telemetry/link"],
                "mavlink-link": ["status/mavlink-link", "telemetry/drone", "telemetry/position", "telemetry/link",
                                 "airspace/fence", "mission/autopilot"],
                "telemetry-logger": ["status/telemetry-logger", "log/sync/response/logger-12"],
                "monitor": [],
            ]
            let everything = own.values.flatMap { $0 } + ["status/location-broadcaster/ground-laptop",
                "log/sync/request"]
            let allowed = own.flatMap { user, topics in Self.writes([user], topics) }
            let denied = own.keys.flatMap { user in
                Self.writes([user], everything.filter { !(own[user] ?? []).contains($0) })
            }
            try await Self.check(broker, passwords, denied: denied, allowed: allowed,
                refusedTopics: ["status/navigator"])
        }

        @Test("ground: only location-broadcaster and the map write target, command, pilot claim; nobody flight/command")
        func groundInputs() async throws {
            let (broker, passwords) = try Self.broker("ground")
            let inputs = ["target", "command", "pilot/claim"]
            // The mission's plan and commands: the broadcaster's and the map's (a dropped .plan, its mission buttons).
            let missionInputs = ["mission/upload", "mission/command"]
            try await Self.check(
                broker, passwords,
                denied: Self.writes(["telemetry-logger", "drone1-bridge", "monitor"], inputs)
                    + Self.writes(Self.groundUsers, ["flight/command"])
                    + Self.writes(["map"], ["status/location-broadcaster/ground-laptop", "status/map"])
                    + Self.writes(["telemetry-logger", "monitor", "map"], ["ground/beacon"])
                    + Self.writes(["telemetry-logger", "drone1-bridge", "monitor"], missionInputs),
                allowed: Self.writes(["location-broadcaster"], inputs + missionInputs
                                     + ["status/location-broadcaster/ground-laptop", "ground/beacon"])
                    + Self.writes(["map"], inputs + missionInputs),
                refusedTopics: inputs)
        }

        @Test("ground: telemetry and board status are read-only except for the bridge account")
        func groundTelemetryReadOnly() async throws {
            let (broker, passwords) = try Self.broker("ground")
            let fromBoard = ["telemetry/drone", "telemetry/position", "telemetry/navigation", "telemetry/controller",
                             "telemetry/link", "status/navigator", "status/drone-controller", "status/drone-link",
                             "airspace/held", "mission/progress", "mission/status", "airspace/fence", "airspace/route",
                             "mission/autopilot"]
            let probe = try await ACLProbe(port: broker.port, passwords: passwords, observer: Self.observer)
            defer { probe.shutdown() }
            let seen = try await probe.publish(
                denied: Self.writes(["location-broadcaster", "telemetry-logger", "monitor", "map"], fromBoard)
                    + Self.writes(["location-broadcaster"], ["status/telemetry-logger"])
                    + Self.writes(["telemetry-logger", "drone1-bridge"], ["status/location-broadcaster/ground-laptop"]),
                allowed: Self.writes(["drone1-bridge"], fromBoard) + Self.writes(["telemetry-logger"],
                    ["status/telemetry-logger"]))
            let expected = Set(Self.writes(["drone1-bridge"], fromBoard)
                + Self.writes(["telemetry-logger"], ["status/telemetry-logger"]))
            #expect(Set(seen.keys) == expected, "got through: \(Set(seen.keys).subtracting(expected))")
            #expect(seen.values.allSatisfy { $0 == 1 })
            // Ground users still read what the bridge brings.
            for user in ["location-broadcaster", "telemetry-logger", "monitor", "map"] {
                let reader = try await probe.client(user)
                #expect(reader.payloads("quad/drone1/telemetry/drone") == [
                    "drone1-bridge wrote quad/drone1/telemetry/drone"],
                        "\(user)")
            }
        }

        @Test("ground: only the logger asks the board for lost telemetry, only the bridge brings the answers")
        func groundSync() async throws {
            let (broker, passwords) = try Self.broker("ground")
            let request = ["log/sync/request"], response = ["log/sync/response/logger-12"]
            try await Self.check(
                broker, passwords,
                denied: Self.writes(["location-broadcaster", "drone1-bridge", "monitor", "map"], request)
                    + Self.writes(["location-broadcaster", "telemetry-logger", "monitor", "map"], response),
                allowed: Self.writes(["telemetry-logger"], request) + Self.writes(["drone1-bridge"], response),
                refusedTopics: [])
        }

        @Test("ground: the live map's websockets listeners want a user and password like every other client")
        func groundWebSocketsAuthenticated() throws {
            let (broker, passwords) = try Self.broker("ground")
            #expect(broker.ports.count == 3, "listeners: \(broker.ports)")
            let probe = TestEnvironment.repoRoot.appendingPathComponent("Tests/WebMapTests/ws_connect_probe.py").path
            func connack(_ port: UInt16, _ credentials: [String], tls: [String] = []) throws -> String {
                let result = try runCommand(MapBrowser.python, [probe] + tls + ["\(port)"] + credentials,
                                            logDirectory: broker.directory, timeoutS: 20)
                return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
            }
            func curl(_ arguments: [String]) throws -> CommandResult {
                try runCommand(TestEnvironment.requireTool("curl"), ["-sS", "--fail"] + arguments,
                               logDirectory: broker.directory)
            }
            // Loopback, plain (9001): the page and MQTT over ws.
            let webSockets = try broker.port(forListener: 9001)
            #expect(try connack(webSockets, []) == "5", "anonymous over websockets")
            #expect(try connack(webSockets, ["map", "wrong"]) == "5", "bad password over websockets")
            #expect(try connack(webSockets, ["map", passwords["map"] ?? ""]) == "0", "map over websockets")
            #expect(try curl(["http://127.0.0.1:\(webSockets)/index.html"]).output.contains("data-test=\"map\""))

            // Other devices (9443, quadcopter-map-tls.service): the same over TLS with the broker's certificate,
            // trusted through the laptop's CA.
            let relay = try Self.mapRelay(broker)
            defer { relay.stop() }
            let secure = relay.port
            let ca = Self.caFile(broker).path
            #expect(try connack(secure, [], tls: ["--cafile", ca]) == "5", "anonymous over wss")
            #expect(try connack(secure, ["map", "wrong"], tls: ["--cafile", ca]) == "5", "bad password over wss")
            #expect(try connack(secure, ["map", passwords["map"] ?? ""], tls: ["--cafile", ca]) == "0", "map over wss")
            let page = try curl(["--cacert", ca, "https://127.0.0.1:\(secure)/index.html"])
            #expect(page.exitCode == 0 && page.output.contains("data-test=\"map\""), "\(page.output)")
            // Not plain, and not without the CA: the system's trust store does not know the laptop's CA.
            #expect(try connack(secure, ["map", passwords["map"] ?? ""]) != "0", "plain ws on the TLS listener")
            let system = try connack(secure, ["map", passwords["map"] ?? ""],
                                     tls: ["--cafile", "system"])
            #expect(system.hasPrefix("tls: CERTIFICATE_VERIFY_FAILED"), "\(system)")
            let untrusted = try curl(["https://127.0.0.1:\(secure)/index.html"])
            #expect(untrusted.exitCode == 60, "curl without the CA: \(untrusted.output)")
        }
    }
}
