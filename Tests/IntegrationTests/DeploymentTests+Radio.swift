import Foundation
import Testing

extension DeploymentTests {
    /// Issue 34 item 3, staged: TLS on the radio by default. The laptop's install makes a CA (kept, never made
    /// anew) and a broker certificate, listens TLS on 8883 and plain on loopback only, and gives each drone's bridge
    /// account only quad/<its id>/…; the board's install takes the CA and bridges over TLS. Plain over the radio
    /// only by name.
    @Suite("install.sh: the radio link",
           .enabled(if: TestEnvironment.available("bash", "mosquitto_passwd", "systemctl", "openssl")))
    struct Radio {
        static let conf = "/etc/mosquitto/conf.d/quadcopter.conf"

        /// `listener …` lines of a configuration, in order.
        static func listeners(_ conf: String) -> [String] {
            conf.split(separator: "\n").map(String.init).filter { $0.hasPrefix("listener ") }
        }

        static func openssl(_ arguments: [String], _ install: StagedInstall) throws -> CommandResult {
            try runCommand(TestEnvironment.requireTool("openssl"), arguments, logDirectory: install.logDirectory)
        }

        @Test("laptop: plain and map on loopback, TLS on 8883 and the map's relay; the CA private and kept; names")
        func groundTLS() throws {
            let install = try StagedInstall(side: "ground")
            defer { install.remove() }
            try #require(try install.run(["--radio-name", "laptop.example", "--radio-name", "10.9.8.7"]).exitCode == 0)
            let conf = try install.text(Self.conf)
            #expect(Self.listeners(conf) == ["listener 1883 127.0.0.1", "listener 8883", "listener 9001 127.0.0.1"])
            #expect(conf.contains(
                "\ncertfile \(StagedInstall.groundCertificate)\nkeyfile \(StagedInstall.groundKey)\n"))
            // The map for other devices: the TLS relay, installed and enabled, with the same certificate and key.
            let relay = try install.text("/etc/systemd/system/quadcopter-map-tls.service")
            #expect(relay.contains("CERT=\(StagedInstall.groundCertificate) KEY=\(StagedInstall.groundKey)"))
            let wants = install.url("/etc/systemd/system/multi-user.target.wants/quadcopter-map-tls.service").path
            #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: wants)) != nil, "not enabled")
            let unitVerified = try runCommand(TestEnvironment.requireTool("systemd-analyze"),
                                          ["verify", MapTLSRelay.unit.path], logDirectory: install.logDirectory)
            #expect(unitVerified.exitCode == 0 && unitVerified.output.isEmpty, "\(unitVerified.output)")
            // The certificate: issued by the CA, for the names given plus localhost and 127.0.0.1, a server's.
            let certificate = install.url(StagedInstall.groundCertificate).path
            let ca = install.url(StagedInstall.groundCA).path
            let verified = try Self.openssl(["verify", "-CAfile", ca, "-purpose", "sslserver", certificate], install)
            #expect(verified.exitCode == 0, "\(verified.output)")
            for name in ["laptop.example", "localhost"] {
                #expect(try Self.openssl(["verify", "-CAfile", ca, "-verify_hostname", name, certificate], install)
                    .exitCode == 0, "\(name)")
            }
            for address in ["10.9.8.7", "127.0.0.1"] {
                #expect(try Self.openssl(["verify", "-CAfile", ca, "-verify_ip", address, certificate], install)
                    .exitCode == 0, "\(address)")
            }
            #expect(try Self.openssl(["verify", "-CAfile", ca, "-verify_hostname", "other.example", certificate],
                                     install).exitCode != 0)

            // Re-installed: the CA stays (boards trust it); new names → a new certificate from the same CA.
            let caText = try install.text(StagedInstall.groundCA), caKey = try install.text(StagedInstall.groundCAKey)
            try #require(try install.run(["--radio-name", "laptop2.example"]).exitCode == 0)
            #expect(try install.text(StagedInstall.groundCA) == caText)
            #expect(try install.text(StagedInstall.groundCAKey) == caKey)
            #expect(try Self.openssl(["verify", "-CAfile", ca, "-verify_hostname", "laptop2.example", certificate],
                                     install).exitCode == 0)
            #expect(try install.mode(StagedInstall.groundCAKey) == 0o600)
        }

        @Test("laptop ACL: one bridge account per drone, each only its own quad/<id>/; a later run keeps the others")
        func groundBridgeAccounts() async throws {
            let install = try StagedInstall(side: "ground")
            defer { install.remove() }
            try #require(try install.run(["--drone", "drone1", "--drone", "drone2"]).exitCode == 0)
            try #require(try install.run(["--drone", "far-3"]).exitCode == 0)
            let acl = try install.text("/etc/mosquitto/conf.d/quadcopter.acl")
            let template = try DeploymentTests.deployFile("ground/quadcopter.acl")
            for drone in ["drone1", "drone2", "far-3"] {
                let block = acl.components(separatedBy: "user \(drone)-bridge\n").dropFirst().first?
                    .components(separatedBy: "\n\n").first ?? ""
                let expected = template.components(separatedBy: "user drone1-bridge\n").last?
                    .components(separatedBy: "\n\n").first?.replacingOccurrences(of: "drone1", with: drone)
                #expect(block == expected, "\(drone)")
                #expect(!block.contains("quad/+/"))
                #expect(try install.password("\(drone)-bridge").count >= 20)
            }
            #expect(Set(try install.passwordFileUsers()).isSuperset(of: ["drone1-bridge", "drone2-bridge",
                                                                         "far-3-bridge"]))

            // On the broker: drone2's account writes its own telemetry, never drone1's (nor any target).
            let broker = try install.broker()
            defer { broker.stop() }
            let accounts = ["drone1-bridge", "drone2-bridge", "monitor"]
            let probe = try await ACLProbe(port: broker.port,
                                           passwords: Dictionary(uniqueKeysWithValues: try accounts.map {
                                               ($0, try install.password($0)) }),
                                           observer: "monitor")
            defer { probe.shutdown() }
            func write(_ user: String, _ topic: String) -> WriteAttempt { WriteAttempt(user: user, topic: topic) }
            let denied = ["target", "command", "telemetry/drone", "status/navigator", "log/sync/response/x"]
                .map { write("drone2-bridge", "quad/drone1/\($0)") }
                + [write("drone1-bridge", "quad/drone2/telemetry/link")]
            let allowed = [write("drone2-bridge", "quad/drone2/telemetry/drone"),
                           write("drone1-bridge", "quad/drone1/telemetry/drone")]
            let seen = try await probe.publish(denied: denied, allowed: allowed)
            #expect(Set(seen.keys) == Set(allowed), "got through: \(Set(seen.keys).subtracting(allowed))")
        }

        @Test("board: --drone names the bridge account, the bridged topics and QUAD_DRONE; the CA is the one given")
        func boardDroneId() throws {
            let install = try StagedInstall(side: "drone")
            defer { install.remove() }
            try #require(try install.run(["--drone", "far-3", "--ground-address", "laptop.example"]).exitCode == 0)
            let conf = try install.text(Self.conf)
            #expect(conf.contains("\naddress laptop.example:8883\n"))
            #expect(conf.contains("\nremote_username far-3-bridge\n"))
            #expect(conf.contains("\nremote_clientid far-3-bridge\n"))
            #expect(conf.contains("\nbridge_cafile \(StagedInstall.boardCA)\nbridge_insecure false\n"))
            let topics = conf.split(separator: "\n").filter { $0.hasPrefix("topic ") }
            #expect(!topics.isEmpty && topics.allSatisfy { $0.hasPrefix("topic quad/far-3/") }, "\(topics)")
            #expect(!conf.split(separator: "\n").contains { !$0.hasPrefix("#") && $0.contains("drone1") })
            for service in install.services {
                #expect(try install.text("/etc/quadcopter/\(service).env").contains("\nQUAD_DRONE=far-3\n"))
            }
            #expect(try install.password("far-3-bridge").count >= 20)
            // A re-run without options keeps the id and the address.
            try #require(try install.run().exitCode == 0)
            #expect(try install.text(Self.conf) == conf)
        }

        @Test("plain over the radio only by name (--insecure-plain-radio), loudly; otherwise no CA → refused")
        func plainOnlyByName() throws {
            let ground = try StagedInstall(side: "ground")
            defer { ground.remove() }
            let groundResult = try ground.run(["--insecure-plain-radio"])
            try #require(groundResult.exitCode == 0, "\(groundResult.output)")
            #expect(groundResult.output.contains("WARNING: --insecure-plain-radio: MQTT over the radio is PLAIN TEXT"))
            #expect(Self.listeners(try ground.text(Self.conf)).first == "listener 1883")

            let drone = try StagedInstall(side: "drone")
            defer { drone.remove() }
            let droneResult = try drone.run(["--insecure-plain-radio", "--ground-address", "laptop.example"])
            try #require(droneResult.exitCode == 0, "\(droneResult.output)")
            #expect(droneResult.output.contains("PLAIN TEXT"))
            let conf = try drone.text(Self.conf)
            #expect(conf.contains("\naddress laptop.example:1883\n"))
            #expect(!conf.contains("\nbridge_cafile") && !conf.contains("\nbridge_insecure"))

            // A package upgrade (its postinst passes --reconfigure) keeps the plain radio, loudly, on both sides; a
            // re-run by hand without the flag is TLS again: the board's bridge to the plain port is refused (exit 64).
            let groundAgain = try ground.run(["--reconfigure"])
            try #require(groundAgain.exitCode == 0, "\(groundAgain.output)")
            #expect(groundAgain.output.contains("PLAIN TEXT"))
            #expect(Self.listeners(try ground.text(Self.conf)).first == "listener 1883")
            let droneAgain = try drone.run(["--reconfigure"])
            try #require(droneAgain.exitCode == 0, "\(droneAgain.output)")
            #expect(droneAgain.output.contains("PLAIN TEXT"))
            #expect(try drone.text(Self.conf) == conf)
            let byHand = try drone.run([])
            #expect(byHand.exitCode == 64 && byHand.output.contains("plain port"), "\(byHand.output)")

            // By default: no CA, a CA file holding a private key, not a CA, or the plain port → exit 64, nothing
            // written.
            let tls = try RadioTLS(in: drone.logDirectory)
            let keyAndCert = drone.logDirectory.appendingPathComponent("ca-with-key.pem")
            try (String(contentsOf: tls.caKey, encoding: .utf8) + String(contentsOf: tls.caCert, encoding: .utf8))
                .write(to: keyAndCert, atomically: true, encoding: .utf8)
            let refusals: [([String], String)] = [
                (["--root-only-no-ca"], "no CA for the TLS bridge"),
                (["--ca-file", keyAndCert.path], "holds a private key"),
                (["--ca-file", tls.serverCert.path], "not a CA certificate"),
                (["--ca-file", tls.caCert.path, "--ground-address", "laptop.example:1883"], "plain port"),
                (["--drone", "Drone_1"], "bad --drone"),
            ]
            for (arguments, message) in refusals {
                let refusing = try StagedInstall(side: "drone")
                defer { refusing.remove() }
                let result = arguments == ["--root-only-no-ca"]
                    ? try runCommand(TestEnvironment.requireTool("bash"),
                                     [refusing.script, "--root", refusing.root.path, "--prebuilt",
                                      refusing.stubDirectory.path], logDirectory: refusing.logDirectory)
                    : try refusing.run(arguments)
                #expect(result.exitCode == 64, "\(arguments): \(result.output)")
                #expect(result.output.contains(message), "\(arguments): \(result.output)")
                #expect(try FileManager.default.contentsOfDirectory(atPath: refusing.root.path).isEmpty)
            }
        }
    }
}
