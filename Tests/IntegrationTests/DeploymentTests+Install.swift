import Foundation
import Testing

extension DeploymentTests {
    /// deploy/{drone,ground}/install.sh into a staging root (`--root`) with stub executables (`--prebuilt`).
    @Suite("install.sh", .enabled(if: TestEnvironment.available("bash", "mosquitto_passwd", "systemctl", "openssl")))
    struct Install {
        static let sides = ["drone", "ground"]

        /// Accounts each side's broker must know: one per service, the read-only monitor, and on the ground the
        /// drone's bridge.
        static func accounts(_ side: String) -> Set<String> {
            Set((side == "drone" ? StagedInstall.droneServices : StagedInstall.groundServices
                + ["drone1-bridge", "map"])
                + ["monitor"])
        }

        /// Every path under the staging root with its permission bits (symlinks: their target).
        static func tree(_ install: StagedInstall) throws -> [String: String] {
            let fm = FileManager.default
            var result: [String: String] = [:]
            let rootPath = install.root.path
            for relative in try fm.subpathsOfDirectory(atPath: rootPath) {
                let path = rootPath + "/" + relative
                if let target = try? fm.destinationOfSymbolicLink(atPath: path) {
                    result[relative] = "-> \(target)"
                } else {
                    let mode = (try fm.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
                    result[relative] = String(mode, radix: 8)
                }
            }
            return result
        }

        @Test("--dry-run prints the plan and changes nothing", arguments: sides)
        func dryRun(side: String) throws {
            let install = try StagedInstall(side: side)
            defer { install.remove() }
            // No --prebuilt: the build must only be printed, too.
            let result = try runCommand(TestEnvironment.requireTool("bash"),
                                        [install.script, "--dry-run", "--root", install.root.path],
                                        logDirectory: install.logDirectory)
            #expect(result.exitCode == 0, "\(result.output)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: install.root.path).isEmpty)
            for service in install.services {
                #expect(result.output.contains(
                    """
                        + \(TestEnvironment.repoRoot.path)/scripts/swift-release.sh --package-path \
                        \(TestEnvironment.repoRoot.path) --product \(service)
                        """))
                #expect(result.output.contains("\(install.root.path)/etc/systemd/system/\(service).service"))
                #expect(result.output.contains(
                    "mosquitto_passwd -b \(install.root.path)/etc/mosquitto/quadcopter.passwd \(service) <password>"))
            }
            #expect(result.output.contains("+ systemctl --root=\(install.root.path) enable"))
        }

        /// `--packaged`, as the Debian package's postinst and quadcopter-<side>-setup run it (make packages-check
        /// installs the real packages): the executables dpkg put into /usr/bin are used where they are.
        @Test("--packaged: the units run /usr/bin's executables, none is copied, and --prebuilt is refused",
              arguments: sides)
        func packaged(side: String) throws {
            let install = try StagedInstall(side: side)
            defer { install.remove() }
            let fm = FileManager.default
            // What dpkg unpacked before the postinst runs: the executables.
            try fm.createDirectory(at: install.url("/usr/bin"), withIntermediateDirectories: true)
            for service in install.services {
                try fm.copyItem(at: install.stubDirectory.appendingPathComponent(service),
                                to: install.url("/usr/bin/\(service)"))
            }
            var arguments = [install.script, "--root", install.root.path, "--packaged"]
            if side == "drone" { arguments += ["--ca-file", try install.testCA().path] }
            let bash = try TestEnvironment.requireTool("bash")
            let result = try runCommand(bash, arguments, logDirectory: install.logDirectory)
            try #require(result.exitCode == 0, "\(result.output)")
            let readme = TestEnvironment.repoRoot.appendingPathComponent("deploy/README.md").path
            for service in install.services {
                #expect(!fm.fileExists(atPath: install.url("/usr/local/bin/\(service)").path))
                let expected = try DeploymentTests.deployFile("\(side)/\(service).service")
                    .replacingOccurrences(of: "ExecStart=/usr/local/bin/", with: "ExecStart=/usr/bin/")
                    .replacingOccurrences(of: "file:///usr/local/share/doc/quadcopter/README.md",
                                          with: "file://\(readme)")
                #expect(try install.text("/etc/systemd/system/\(service).service") == expected)
            }
            let both = try runCommand(bash, arguments + ["--prebuilt", install.stubDirectory.path],
                                      logDirectory: install.logDirectory)
            #expect(both.exitCode == 64, "\(both.output)")
        }

        @Test("a staged install has binaries, units, env files, passwords, ACL and conf with the documented modes",
              arguments: sides)
        func stagedInstall(side: String) throws {
            let install = try StagedInstall(side: side)
            defer { install.remove() }
            let result = try install.run(side == "drone" ? ["--ground-address", "laptop.example:1884"] : [])
            try #require(result.exitCode == 0, "\(result.output)")
            for service in install.services {
                #expect(try install.mode("/usr/local/bin/\(service)") == 0o755)
                #expect(try install.text("/etc/systemd/system/\(service).service")
                        == DeploymentTests.deployFile("\(side)/\(service).service"))
                #expect(try install.mode("/etc/systemd/system/\(service).service") == 0o644)
                let wants = install.url("/etc/systemd/system/multi-user.target.wants/\(service).service").path
                #expect(try FileManager.default.destinationOfSymbolicLink(atPath: wants)
                        == "/etc/systemd/system/\(service).service")
                #expect(try install.text("/etc/quadcopter/\(service).env")
                        == DeploymentTests.deployFile("\(side)/\(service).env"))
                #expect(try install.mode("/etc/quadcopter/\(service).env") == 0o644)
                #expect(try install.mode("/etc/quadcopter/\(service).password") == 0o640)
            }
            for account in Self.accounts(side) {
                let password = try install.password(account)
                #expect(password.count >= 20 && password.allSatisfy { $0.isLetter || $0.isNumber || "-_".contains($0) },
                        "\(account): weak or unsafe password")
                if !install.services.contains(account) {
                    #expect(try install.mode("/etc/quadcopter/\(account).password") == 0o600)
                }
            }
            // One line per account, and exactly the accounts the ACL grants rights to.
            let users = try install.passwordFileUsers()
            #expect(users.count == Set(users).count, "duplicate lines: \(users)")
            #expect(Set(users) == Self.accounts(side))
            let acl = try install.text("/etc/mosquitto/conf.d/quadcopter.acl")
            #expect(acl == (try DeploymentTests.deployFile("\(side)/quadcopter.acl")))
            // The board's ACL also knows the other vehicle's link (mavlink-link), which has no account here.
            #expect(Set(DeploymentTests.aclUsers(acl))
                    == Self.accounts(side).union(side == "drone" ? ["mavlink-link"] : []))
            #expect(try install.mode("/etc/mosquitto/quadcopter.passwd") == 0o600)
            #expect(try install.mode("/etc/mosquitto/conf.d/quadcopter.acl") == 0o640)
            #expect(try install.mode("/etc/mosquitto/conf.d/quadcopter.conf") == 0o640)
            #expect(try install.text(
                "/usr/local/share/doc/quadcopter/README.md") == DeploymentTests.deployFile("README.md"))

            let conf = try install.text("/etc/mosquitto/conf.d/quadcopter.conf")
            let deployConf = try DeploymentTests.deployFile("\(side)/mosquitto.conf")
            if side == "drone" {
                let expected = deployConf
                    .replacingOccurrences(of: "\naddress ground.local:8883\n", with: "\naddress laptop.example:1884\n")
                    .replacingOccurrences(of: "@BRIDGE_PASSWORD@", with: try install.password("drone1-bridge"))
                #expect(conf == expected)
                // The bridge trusts the CA it was given, readable by mosquitto (a certificate is public).
                #expect(try install.text(StagedInstall.boardCA)
                        == String(contentsOf: install.testCA(), encoding: .utf8))
                #expect(try install.mode(StagedInstall.boardCA) == 0o644)
            } else {
                // The radio's CA: its key private to root, never in mosquitto's reach; the broker's key 0640.
                #expect(try install.mode(StagedInstall.groundCAKey) == 0o600)
                #expect(try install.mode(StagedInstall.groundCA) == 0o644)
                #expect(try install.mode(StagedInstall.groundCertificate) == 0o644)
                #expect(try install.mode(StagedInstall.groundKey) == 0o640)
                #expect(conf == deployConf)
                // The live map: the page as in the repo, Leaflet from libjs-leaflet, where http_dir points.
                #expect(conf.contains("\nhttp_dir /usr/share/quadcopter/map\n"))
                for file in ["index.html", "app.js", "mqttws.js", "quadproto.js", "vocabulary.js", "missionproto.js",
                             "planfile.js", "zones.js"] {
                    #expect(try install.text("/usr/share/quadcopter/map/\(file)")
                            == String(contentsOf: TestEnvironment.repoRoot.appendingPathComponent("web/map/\(file)"),
                                encoding: .utf8))
                    #expect(try install.mode("/usr/share/quadcopter/map/\(file)") == 0o644)
                }
                #expect(try install.text("/usr/share/quadcopter/map/vendor/leaflet/leaflet.js").contains("Leaflet"))
                #expect(try install.mode("/usr/share/quadcopter/map/vendor/leaflet/leaflet.css") == 0o644)
            }
        }

        /// Time sync ships with the install: the board takes its time from the laptop over the radio (a Pi has no
        /// RTC and the field no internet) and steps once when it booted far off; the laptop serves its own clock.
        @Test(
            """
                chrony: the board syncs from the ground address and steps once; the ground serves the radio; chronyd \
                parses both
                """,
              .enabled(if: TestEnvironment.available("chronyd")))
        func chrony() throws {
            let chronyd = try TestEnvironment.requireTool("chronyd")
            let drone = try StagedInstall(side: "drone")
            defer { drone.remove() }
            try #require(try drone.run(["--ground-address", "10.77.0.1:8883"]).exitCode == 0)
            let board = try drone.text("/etc/chrony/conf.d/quadcopter.conf")
            #expect(board.contains("\nserver 10.77.0.1 iburst minpoll 0 maxpoll 4 prefer\n"))
            #expect(board.contains("\nmakestep 1 3\n"))
            #expect(!board.contains("ground.local"))

            let groundInstall = try StagedInstall(side: "ground")
            defer { groundInstall.remove() }
            try #require(try groundInstall.run(["--radio-subnet", "10.77.0.0/24"]).exitCode == 0)
            let ground = try groundInstall.text("/etc/chrony/conf.d/quadcopter.conf")
            #expect(ground.contains("\nallow 10.77.0.0/24\n"))
            #expect(!ground.contains("allow 192.168.0.0/16"))
            #expect(ground.contains("\nlocal stratum 10"))

            // chronyd itself must accept what was installed (and the shipped templates).
            for path in [drone.url("/etc/chrony/conf.d/quadcopter.conf").path,
                         groundInstall.url("/etc/chrony/conf.d/quadcopter.conf").path,
                         TestEnvironment.repoRoot.appendingPathComponent("deploy/drone/chrony.conf").path,
                         TestEnvironment.repoRoot.appendingPathComponent("deploy/ground/chrony.conf").path] {
                let parsed = try runCommand(chronyd, ["-p", "-f", path], logDirectory: drone.logDirectory)
                #expect(parsed.exitCode == 0, "chronyd -p -f \(path): \(parsed.output)")
            }
            // A bad subnet never reaches chrony's configuration.
            let bad = try StagedInstall(side: "ground")
            defer { bad.remove() }
            let refused = try bad.run(["--radio-subnet", "10.0.0.0/8\nallow all"])
            #expect(refused.exitCode != 0)
            #expect(refused.output.contains("bad --radio-subnet"))
        }

        @Test("running twice keeps passwords, edited env files and the bridge address; nothing duplicates",
              arguments: sides)
        func idempotent(side: String) throws {
            let install = try StagedInstall(side: side)
            defer { install.remove() }
            try #require(try install.run(side == "drone" ? ["--ground-address", "10.0.0.2:8883"] : []).exitCode == 0)
            let firstTree = try Self.tree(install)
            let passwords = try Self.accounts(side).sorted().map { try install.password($0) }
            let conf = try install.text("/etc/mosquitto/conf.d/quadcopter.conf")
            let envPath = "/etc/quadcopter/\(install.services[0]).env"
            let edited = try install.text(envPath) + "QUAD_LOG_LEVEL=debug\n"
            try edited.write(to: install.url(envPath), atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: install.url(envPath).path)

            let tlsFiles = side == "drone" ? [StagedInstall.boardCA]
                : [StagedInstall.groundCA, StagedInstall.groundCAKey, StagedInstall.groundCertificate,
                   StagedInstall.groundKey]
            let tls = try tlsFiles.map { try install.text($0) }

            let second = try install.run()
            try #require(second.exitCode == 0, "\(second.output)")
            #expect(try Self.tree(install) == firstTree)
            // The CA (the boards trust it) and the certificate are kept, never made anew.
            #expect(try tlsFiles.map { try install.text($0) } == tls)
            #expect(try Self.accounts(side).sorted().map { try install.password($0) } == passwords)
            #expect(try install.text(envPath) == edited)
            #expect(try install.text("/etc/mosquitto/conf.d/quadcopter.conf") == conf)
            #expect(try install.passwordFileUsers().count == Self.accounts(side).count)
        }

        @Test("the ground takes the board's bridge password; bad input is refused before anything is written")
        func bridgePasswordAndBadInput() throws {
            let drone = try StagedInstall(side: "drone")
            defer { drone.remove() }
            try #require(try drone.run().exitCode == 0)
            let ground = try StagedInstall(side: "ground")
            defer { ground.remove() }
            let bridgeFile = drone.url("/etc/quadcopter/drone1-bridge.password").path
            try #require(try ground.run(["--bridge-password-file", bridgeFile]).exitCode == 0)
            #expect(try ground.password("drone1-bridge") == drone.password("drone1-bridge"))

            let bad = try StagedInstall(side: "drone")
            defer { bad.remove() }
            let injected = try bad.run(["--ground-address", "x.example:1883\nlistener 1884"])
            #expect(injected.exitCode != 0)
            let unsafe = bad.logDirectory.appendingPathComponent("unsafe.password")
            try "pass word|x\n".write(to: unsafe, atomically: true, encoding: .utf8)
            #expect(try FileManager.default.contentsOfDirectory(atPath: bad.root.path).isEmpty)
            for side in Self.sides {
                let refusing = try StagedInstall(side: side)
                defer { refusing.remove() }
                #expect(try refusing.run(["--bridge-password-file", unsafe.path]).exitCode != 0)
                #expect(try FileManager.default.contentsOfDirectory(atPath: refusing.root.path).isEmpty, "\(side)")
            }
        }
    }
}
