import Foundation
import ProcessSupport
import QuadProtocol
import Testing

extension DeploymentTests {
    /// Issue 34 item 2: deploy/drone/install.sh installs the MAVLink path as it installs drone-link — the vehicle
    /// chosen at install (`--vehicle mavlink`, a serial port or UDP), mavlink-link's unit, env file, password and
    /// broker account with exactly its topics, and only one vehicle link enabled.
    @Suite("install.sh: the MAVLink vehicle", .enabled(if: TestEnvironment.available("bash", "mosquitto_passwd",
                                                                                       "systemctl")))
    struct MAVLink {
        static let env = "/etc/quadcopter/mavlink-link.env"
        static let dropIn = "/etc/systemd/system/mavlink-link.service.d/serial.conf"

        /// Whether `systemctl --root` enabled the unit (its link in multi-user.target.wants; the link points at the
        /// real /etc, so it is read, not followed).
        static func enabled(_ install: StagedInstall, _ unit: String) -> Bool {
            let wants = install.url("/etc/systemd/system/multi-user.target.wants/\(unit).service").path
            let target = try? FileManager.default.destinationOfSymbolicLink(atPath: wants)
            return target == "/etc/systemd/system/\(unit).service"
        }

        /// The `topic …` lines of one user's block in an ACL.
        static func aclBlock(_ acl: String, user: String) -> Set<String> {
            let block = acl.components(separatedBy: "\nuser \(user)\n").dropFirst().first?
                .components(separatedBy: "\n\n").first ?? ""
            return Set(block.split(separator: "\n").map(String.init).filter { $0.hasPrefix("topic ") })
        }

        @Test("both vehicle links' ACL entries are exactly their topics in the topic table (Topics.swift)")
        func aclMatchesTopicTable() throws {
            let acl = try DeploymentTests.deployFile("drone/quadcopter.acl")
            for link in ["drone-link", "mavlink-link"] {
                let expected: Set<String> = [
                    "topic read \(Topics.flightCommand.anyDroneFilter)",
                    "topic read \(Topics.allStatusFilter)",
                    "topic write \(Topics.droneState.anyDroneFilter)",
                    "topic write \(Topics.position.anyDroneFilter)",
                    "topic write \(Topics.linkStatus.anyDroneFilter)",
                    "topic write \(Topics.presence.anyDroneFilter)/\(link)",
                ]
                // mavlink-link keeps the held airspace as the autopilot's own fence, and the held plan as its own
                // mission at the board's item, and says whether each holds.
                let fence: Set<String> = link == "mavlink-link" ? [
                    "topic read \(Topics.airspaceHeld.anyDroneFilter)",
                    "topic write \(Topics.airspaceFence.anyDroneFilter)",
                    "topic read \(Topics.missionHeld.anyDroneFilter)",
                    "topic read \(Topics.missionProgress.anyDroneFilter)",
                    "topic write \(Topics.missionAutopilot.anyDroneFilter)",
                ] : []
                #expect(Self.aclBlock(acl, user: link) == expected.union(fence), "\(link)")
            }
            // Its presence crosses the bridge and the ground lets only the bridge write it.
            #expect(try DeploymentTests.bridgeTopics().contains { $0 == ("quad/drone1/status/mavlink-link", "out") })
            #expect(Self.aclBlock(try DeploymentTests.deployFile("ground/quadcopter.acl"), user: "drone1-bridge")
                .contains("topic write quad/drone1/status/mavlink-link"))
            #expect(try DeploymentTests.bridgeTopics().contains { $0 == ("quad/drone1/airspace/fence", "out") })
            #expect(try DeploymentTests.bridgeTopics().contains { $0 == ("quad/drone1/mission/autopilot", "out") })
        }

        @Test("--vehicle mavlink --serial: unit, env file, drop-in, password, account, ACL; drone-link not installed")
        func serialInstall() throws {
            let install = try StagedInstall(side: "drone")
            defer { install.remove() }
            let result = try install.run(["--vehicle", "mavlink", "--serial", "/dev/ttyAMA0", "--baud", "57600",
                                          "--flow-control"])
            try #require(result.exitCode == 0, "\(result.output)")
            #expect(try install.mode("/usr/local/bin/mavlink-link") == 0o755)
            #expect(try install.text("/etc/systemd/system/mavlink-link.service")
                    == DeploymentTests.deployFile("drone/mavlink-link.service"))
            #expect(Self.enabled(install, "mavlink-link") && !Self.enabled(install, "drone-link"))
            #expect(!FileManager.default.fileExists(atPath: install.url("/usr/local/bin/drone-link").path))
            let env = try install.text(Self.env)
            let template = try DeploymentTests.deployFile("drone/mavlink-link.env")
            #expect(env == template.replacingOccurrences(
                of: "QUAD_MAVLINK_LISTEN=0.0.0.0:14540\n",
                with: "QUAD_SERIAL=/dev/ttyAMA0\nQUAD_BAUD=57600\nQUAD_FLOW_CONTROL=1\n"))
            #expect(try install.mode(Self.env) == 0o644)
            #expect(try install.mode("/etc/quadcopter/mavlink-link.password") == 0o640)
            #expect(try install.password("mavlink-link").count >= 20)
            // The serial port: its one device and group, no private /dev.
            let dropIn = DeploymentTests.keyValues(try install.text(Self.dropIn)).map { "\($0.key)=\($0.value)" }
            #expect(dropIn == ["Service.PrivateDevices=no", "Service.DevicePolicy=closed",
                               "Service.DeviceAllow=/dev/ttyAMA0 rw", "Service.SupplementaryGroups=dialout"])
            #expect(try install.mode(Self.dropIn) == 0o644)
            let users = Set(try install.passwordFileUsers())
            #expect(users == Set(StagedInstall.mavlinkDroneServices + ["monitor"]))
            #expect(Set(DeploymentTests.aclUsers(try install.text("/etc/mosquitto/conf.d/quadcopter.acl")))
                .isSuperset(of: users))
            #expect(result.output.contains("docs/mavlink-vehicles.md"), "points at the autopilot's parameters")

            // A re-run without --vehicle keeps MAVLink and its serial port.
            try #require(try install.run().exitCode == 0)
            #expect(try install.text(Self.env) == env)
            #expect(FileManager.default.fileExists(atPath: install.url(Self.dropIn).path))
            #expect(Self.enabled(install, "mavlink-link") && !Self.enabled(install, "drone-link"))
        }

        @Test("switching vehicles: only one link enabled, the other's broker account removed; UDP drops the drop-in")
        func switchVehicles() throws {
            let install = try StagedInstall(side: "drone")
            defer { install.remove() }
            try #require(try install.run().exitCode == 0)
            #expect(Self.enabled(install, "drone-link") && !Self.enabled(install, "mavlink-link"))
            try #require(try install.run(["--vehicle", "mavlink", "--serial", "/dev/ttyUSB0"]).exitCode == 0)
            #expect(Self.enabled(install, "mavlink-link") && !Self.enabled(install, "drone-link"))
            #expect(!(try install.passwordFileUsers()).contains("drone-link"))
            let udp = try install.run(["--vehicle", "mavlink", "--mavlink-listen", "127.0.0.1:14550"])
            try #require(udp.exitCode == 0, "\(udp.output)")
            let env = try install.text(Self.env)
            #expect(env.hasSuffix("\nQUAD_MAVLINK_LISTEN=127.0.0.1:14550\n"))
            #expect(!env.contains("\nQUAD_SERIAL=") && !env.contains("\nQUAD_BAUD="))
            #expect(!FileManager.default.fileExists(atPath: install.url(Self.dropIn).path))
            try #require(try install.run(["--vehicle", "ardrone"]).exitCode == 0)
            #expect(Self.enabled(install, "drone-link") && !Self.enabled(install, "mavlink-link"))
            #expect(try install.passwordFileUsers().contains("drone-link"))
            #expect(!(try install.passwordFileUsers()).contains("mavlink-link"))
        }

        @Test("bad vehicle options are refused (exit 64) before anything is written")
        func badOptions() throws {
            let cases: [[String]] = [
                ["--vehicle", "px4"],
                ["--serial", "/dev/ttyAMA0"],
                ["--vehicle", "mavlink", "--serial", "/dev/ttyAMA0", "--mavlink-listen", "0.0.0.0:14540"],
                ["--vehicle", "mavlink", "--serial", "/dev/../etc/shadow"],
                ["--vehicle", "mavlink", "--serial", "ttyAMA0"],
                ["--vehicle", "mavlink", "--serial", "/dev/ttyAMA0", "--baud", "fast"],
                ["--vehicle", "mavlink", "--serial", "/dev/ttyAMA0\nDeviceAllow=/dev/sda rw"],
                ["--vehicle", "mavlink", "--baud", "57600"],
                ["--vehicle", "mavlink", "--mavlink-listen", "0.0.0.0:99999"],
                ["--vehicle", "mavlink", "--mavlink-listen", "localhost"],
            ]
            for arguments in cases {
                let install = try StagedInstall(side: "drone")
                defer { install.remove() }
                let result = try install.run(arguments)
                #expect(result.exitCode == 64, "\(arguments): \(result.output)")
                #expect(result.output.contains("error: "), "\(arguments): \(result.output)")
                #expect(try FileManager.default.contentsOfDirectory(atPath: install.root.path).isEmpty, "\(arguments)")
            }
        }

        @Test("systemd-analyze verify accepts mavlink-link.service with the serial drop-in",
              .enabled(if: TestEnvironment.available("systemd-analyze")))
        func serialUnitVerifies() throws {
            let install = try StagedInstall(side: "drone")
            defer { install.remove() }
            try #require(try install.run(["--vehicle", "mavlink", "--serial", "/dev/null"]).exitCode == 0)
            let directory = install.logDirectory.appendingPathComponent("verify")
            let dropInDirectory = directory.appendingPathComponent("mavlink-link.service.d")
            try FileManager.default.createDirectory(at: dropInDirectory, withIntermediateDirectories: true)
            let executable = try TestEnvironment.executable("mavlink-link").path
            let unit = directory.appendingPathComponent("mavlink-link.service")
            try install.text("/etc/systemd/system/mavlink-link.service")
                .replacingOccurrences(of: "ExecStart=/usr/local/bin/mavlink-link", with: "ExecStart=\(executable)")
                .write(to: unit, atomically: true, encoding: .utf8)
            try install.text(Self.dropIn).write(to: dropInDirectory.appendingPathComponent("serial.conf"),
                                                atomically: true, encoding: .utf8)
            let result = try runCommand(TestEnvironment.requireTool("systemd-analyze"), ["verify", unit.path],
                                        logDirectory: install.logDirectory)
            let complaints = result.output.split(separator: "\n").filter { $0.contains("mavlink-link") }
            #expect(result.exitCode == 0, "\(result.output)")
            #expect(complaints.isEmpty, "\(complaints.joined(separator: "\n"))")
        }

        /// The board's staged broker and mavlink-link from its installed env file (UDP, the default transport), in a
        /// network namespace of its own: its UDP port is the namespace's, whatever else runs on this machine.
        @Test("mavlink-link from its installed env file comes online on the staged broker (UDP listen)")
        func onlineFromEnvFile() async throws {
            if let reason = RadioNamespaces.unavailableReason() {
                #expect(!TestEnvironment.isCI, "cannot run mavlink-link in a namespace: \(reason)")
                return
            }
            let install = try StagedInstall(side: "drone")
            defer { install.remove() }
            try #require(try install.run(["--vehicle", "mavlink"]).exitCode == 0)
            let radio = try RadioNamespaces()
            defer { radio.remove() }
            // The bridge dials a closed loopback port: no name to resolve in the namespace, refused at once.
            let broker = try install.broker(bridgeToPort: 1, namespace: radio.board)
            defer { broker.stop() }
            var environment = Dictionary(DeploymentTests.keyValues(try install.text(Self.env))
                .map { ($0.key, $0.value) }, uniquingKeysWith: { $1 })
            #expect(environment["QUAD_MAVLINK_LISTEN"] == "0.0.0.0:14540" && environment["QUAD_SERIAL"] == nil)
            environment["QUAD_BROKER"] = "127.0.0.1:\(broker.port)"
            let passwordFile = try #require(environment["QUAD_PASSWORD_FILE"])
            environment["QUAD_PASSWORD_FILE"] = install.url(passwordFile).path
            let link = try radio.start(in: radio.board, TestEnvironment.executable("mavlink-link").path, [],
                                       name: "mavlink-link", logDirectory: install.logDirectory,
                                       environment: environment)
            defer { link.stop() }
            let monitor = ["-h", "127.0.0.1", "-p", "\(broker.port)", "-u", "monitor", "-P",
                           try install.password("monitor"), "-C", "1", "-W", "3",
                           "-t", "quad/drone1/status/mavlink-link"]
            try await eventually(timeout: .seconds(30), "mavlink-link online: \(link.output())\n\(broker.output())") {
                let seen = try radio.run(in: radio.board, TestEnvironment.requireTool("mosquitto_sub"), monitor,
                                         logDirectory: install.logDirectory, timeoutS: 10)
                return seen.output.contains(#""state":"online""#)
            }
            #expect(link.isRunning, "\(link.output())")
        }
    }
}
