import Foundation
import QuadMQTT
import Testing

/// The deployment files in deploy/: systemd units, install.sh, the brokers' ACLs and the drone ↔ ground bridge.
/// Everything runs under a temporary directory; nothing touches the system's /etc or its mosquitto.
@Suite("Deployment", .offPool, .serialized)
struct DeploymentTests {
    /// deploy/<side>/<name>.service, e.g. ("drone", "navigator").
    struct Unit: Sendable, CustomTestStringConvertible {
        var side: String
        var name: String
        var testDescription: String { "\(side)/\(name)" }
        var url: URL { TestEnvironment.repoRoot.appendingPathComponent("deploy/\(side)/\(name).service") }
    }

    /// Every shipped service unit: the board's with either vehicle link, and the laptop's.
    static let units: [Unit] = Set(StagedInstall.droneServices + StagedInstall.mavlinkDroneServices).sorted()
        .map { Unit(side: "drone", name: $0) }
        + StagedInstall.groundServices.map { Unit(side: "ground", name: $0) }

    static func deployFile(_ path: String) throws -> String {
        try String(contentsOf: TestEnvironment.repoRoot.appendingPathComponent("deploy/\(path)"), encoding: .utf8)
    }

    /// `key=value` lines of a unit or env file; comments and section headers dropped, sections prefixed
    /// (`Unit.After`, `Service.Restart`). Repeated keys keep every value.
    static func keyValues(_ text: String) -> [(key: String, value: String)] {
        var section = ""
        var result: [(key: String, value: String)] = []
        for raw in text.split(separator: "\n") {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            if line.hasPrefix("[") { section = String(line.dropFirst().dropLast()) + "."; continue }
            guard let equals = line.firstIndex(of: "=") else { continue }
            result.append((section + line[..<equals], String(line[line.index(after: equals)...])))
        }
        return result
    }

    /// `user <name>` lines of an ACL file.
    static func aclUsers(_ acl: String) -> [String] {
        acl.split(separator: "\n").compactMap { line in
            line.hasPrefix("user ") ? String(line.dropFirst(5)).trimmingCharacters(in: .whitespaces) : nil
        }
    }

    /// `.executable(name: "x", …)` products of Package.swift.
    static func executableProducts() throws -> Set<String> {
        let package = try String(contentsOf: TestEnvironment.repoRoot.appendingPathComponent("Package.swift"),
                                 encoding: .utf8)
        return Set(package.split(separator: "\n").compactMap { line -> String? in
            guard let start = line.range(of: ".executable(name: \"") else { return nil }
            return String(line[start.upperBound...].prefix { $0 != "\"" })
        })
    }

    // MARK: - systemd units

    @Test("systemd-analyze verify accepts every unit (ExecStart pointed at the built executables)",
          .enabled(if: TestEnvironment.available("systemd-analyze")))
    func unitsVerify() throws {
        let directory = try TestEnvironment.temporaryDirectory("units")
        defer { TestEnvironment.removeTemporaryDirectory(directory) }
        var paths: [String] = []
        // telemetry-logger runs on both sides: one unit name, so each side's copies go into their own folder.
        for side in ["drone", "ground"] {
            try FileManager.default.createDirectory(at: directory.appendingPathComponent(side),
                                                    withIntermediateDirectories: true)
        }
        for unit in Self.units {
            let executable = try TestEnvironment.executable(unit.name).path
            let text = try String(contentsOf: unit.url, encoding: .utf8)
                .replacingOccurrences(of: "ExecStart=/usr/local/bin/\(unit.name)", with: "ExecStart=\(executable)")
            #expect(text.contains("ExecStart=\(executable)"),
                "\(unit.name): ExecStart is not /usr/local/bin/\(unit.name)")
            let copy = directory.appendingPathComponent("\(unit.side)/\(unit.name).service")
            try text.write(to: copy, atomically: true, encoding: .utf8)
            paths.append(copy.path)
        }
        let result = try runCommand(TestEnvironment.requireTool("systemd-analyze"), ["verify"] + paths,
                                    logDirectory: directory)
        // Unknown keys and bad values are only warnings (exit 0): any line about our units counts as a failure.
        let complaints = result.output.split(separator: "\n").filter { line in
            Self.units.contains { line.contains("\($0.name).service") }
        }
        #expect(result.exitCode == 0, "\(result.output)")
        #expect(complaints.isEmpty, "\(complaints.joined(separator: "\n"))")
    }

    @Test(
        """
            each unit: after and wanting mosquitto, restarts (board: always, after 1 s), its own env file, user and \
            executable
            """,
          arguments: units)
    func unitStructure(unit: Unit) throws {
        let values = Self.keyValues(try String(contentsOf: unit.url, encoding: .utf8))
        func all(_ key: String) -> [String] {
            values.filter { $0.key == key }.flatMap { $0.value.split(separator: " ").map(String.init) }
        }
        #expect(all("Unit.After").contains("mosquitto.service"))
        #expect(all("Unit.Wants").contains("mosquitto.service"))
        // The board's services come back whatever stopped them (docs/flying.md's restart list assumes 1 s); the
        // ground's stay down after a clean stop, which is what a user at the laptop asked for.
        #expect(all("Service.Restart") == (unit.side == "drone" ? ["always"] : ["on-failure"]))
        if unit.side == "drone" { #expect(all("Service.RestartSec") == ["1"]) }
        if unit.name == "drone-controller" {
            #expect(all("Service.StateDirectory") == ["quadcopter/controller"], "the flight memory's directory")
        }
        #expect(all("Service.EnvironmentFile") == ["/etc/quadcopter/\(unit.name).env"])
        #expect(all("Service.User") == ["quad-\(unit.name)"], "install.sh creates quad-<service>")
        #expect(all("Service.ExecStart").first == "/usr/local/bin/\(unit.name)")
        #expect(all("Install.WantedBy") == ["multi-user.target"])
        #expect(try Self.executableProducts().contains(unit.name), "no executable product \(unit.name)")

        // The env file it reads logs in as an account the broker's ACL knows, with install.sh's password file.
        let env = Dictionary(Self.keyValues(try Self.deployFile("\(unit.side)/\(unit.name).env"))
            .map { ($0.key, $0.value) }, uniquingKeysWith: { $1 })
        #expect(env["QUAD_USERNAME"] == unit.name)
        #expect(env["QUAD_PASSWORD_FILE"] == "/etc/quadcopter/\(unit.name).password")
        #expect(env["QUAD_BROKER"] == "127.0.0.1:1883")
        #expect(Self.aclUsers(try Self.deployFile("\(unit.side)/quadcopter.acl")).contains(unit.name))
    }

    // MARK: - bridge configuration

    /// `topic <pattern> <direction> <qos>` lines of the board's bridge.
    static func bridgeTopics() throws -> [(pattern: String, direction: String)] {
        try deployFile("drone/mosquitto.conf").split(separator: "\n").compactMap { line in
            let words = line.split(separator: " ").map(String.init)
            return words.count >= 3 && words[0] == "topic" ? (words[1], words[2]) : nil
        }
    }

    @Test("the bridge never carries flight/command, bridges nothing both ways, and the ground ACL mirrors it")
    func bridgeTopicLines() throws {
        let topics = try Self.bridgeTopics()
        #expect(!topics.isEmpty)
        #expect(topics.allSatisfy { $0.direction == "in" || $0.direction == "out" }, "\(topics)")
        let samples = ["target", "command", "pilot/claim", "flight/command", "telemetry/drone", "telemetry/position",
                       "telemetry/navigation", "telemetry/controller", "telemetry/link", "status/navigator",
                       "status/drone-controller", "status/drone-link", "status/mavlink-link",
                       "status/telemetry-logger",
                       "status/location-broadcaster", "status/location-broadcaster/ground-laptop",
                       "log/sync/request", "log/sync/response/logger-12"]
            .map { "quad/drone1/\($0)" }
        for topic in samples {
            let directions = Set(topics.filter { MQTTClient.matches(filter: $0.pattern, topic: topic) }
                .map(\.direction))
            #expect(directions.count <= 1, "\(topic) is bridged \(directions)")
            if topic.hasSuffix("/flight/command") || topic.hasSuffix("/telemetry-logger") {
                #expect(directions.isEmpty, "\(topic) crosses the bridge")
            }
            // Sync: the ground asks, the board answers.
            if topic.hasSuffix("/log/sync/request") { #expect(directions == ["in"]) }
            if topic.contains("/log/sync/response/") { #expect(directions == ["out"]) }
        }
        // The bridge account on the ground writes what goes out and reads what comes in, line for line.
        let acl = try Self.deployFile("ground/quadcopter.acl")
        let bridgeBlock = acl.components(separatedBy: "user drone1-bridge\n").last?.components(separatedBy: "\nuser ")
            .first ?? ""
        for (pattern, direction) in topics {
            let line = "topic \(direction == "out" ? "write" : "read") \(pattern)"
            #expect(bridgeBlock.split(separator: "\n").contains { $0 == line },
                "ground ACL lacks `\(line)` for drone1-bridge")
        }
    }
}
