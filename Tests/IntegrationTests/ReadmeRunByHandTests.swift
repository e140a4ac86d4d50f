import BrokerNodes
import Foundation
import Navigation
import ProcessSupport
import Testing

/// The "Run it by hand" block of docs/flying.md (README's until issue 28), read at test time and run line by line as a
/// user would, with only what must differ on a shared machine substituted: the test's own mosquitto (free port, via
/// `-p` and `QUAD_BROKER`), free UDP ports for drone-sim/drone-link, and the trace file in the test directory.
@Suite("docs/flying.md: Run it by hand", .offPool, .serialized,
       .enabled(if: TestEnvironment.available("mosquitto", "mosquitto_pub", "mosquitto_sub")))
struct ReadmeRunByHandTests {
    /// The page that holds the block.
    static func page() throws -> String {
        try String(contentsOf: TestEnvironment.repoRoot.appendingPathComponent("docs/flying.md"), encoding: .utf8)
    }

    /// The shell lines of the first ```sh block after "## Run it by hand", comments removed.
    static func commands(readme: String) throws -> [[String]] {
        let section = try #require(readme.range(of: "## Run it by hand"))
        let rest = readme[section.upperBound...]
        let open = try #require(rest.range(of: "```sh\n"))
        let close = try #require(rest[open.upperBound...].range(of: "```"))
        return rest[open.upperBound..<close.lowerBound].split(separator: "\n").map { shellWords(String($0)) }
            .filter { !$0.isEmpty }
    }

    /// Enough of sh for the page's lines: words split on blanks, '…' quoting, `#` after a blank starts a comment.
    static func shellWords(_ line: String) -> [String] {
        var words: [String] = []
        var word: String?
        var quoted = false
        for c in line {
            if quoted {
                if c == "'" { quoted = false } else { word!.append(c) }
            } else if c == "'" {
                quoted = true
                word = word ?? ""
            } else if c == " " || c == "\t" {
                if let w = word { words.append(w) }
                word = nil
            } else if c == "#", word == nil {
                break
            } else {
                word = (word ?? "") + String(c)
            }
        }
        if let w = word { words.append(w) }
        return words
    }

    @Test("the block parses into the commands we know how to run")
    func parses() throws {
        let readme = try Self.page()
        let lines = try Self.commands(readme: readme)
        #expect(lines.first == ["swift", "build"])
        #expect(lines.contains(["mosquitto", "-c", "mosquitto.conf"]))
        #expect(lines.filter { $0[0].hasPrefix(".build/debug/") }.count == 4)
        #expect(Self.shellWords(#"mosquitto_pub -t a -m '{"lat":1}'  # x"#) == ["mosquitto_pub", "-t", "a", "-m",
            #"{"lat":1}"#])
    }

    @Test("the drone takes off and reaches the page's target (simulator ground truth)")
    func flies() async throws {
        let readme = try Self.page()
        let lines = try Self.commands(readme: readme)
        var broker: BrokerProcess?
        defer { broker?.stop() }
        var children: [ChildProcess] = []
        defer { for child in children.reversed() { child.stop() } }
        var sub: ChildProcess?
        var target: GeoPoint?
        var traceURL: URL?
        let atPort = try freeLoopbackPort(udp: true)
        var navdataPort = try freeLoopbackPort(udp: true)
        while navdataPort == atPort { navdataPort = try freeLoopbackPort(udp: true) }

        for words in lines {
            let program = words[0]
            var arguments = Array(words.dropFirst())
            switch program {
            case "swift":
                continue  // built already (QUAD_BIN_DIR)
            case "mosquitto":
                #expect(arguments == ["-c", "mosquitto.conf"])
                broker = try BrokerProcess()  // the repo's mosquitto.conf on a free port
            case let path where path.hasPrefix(".build/debug/"):
                let name = String(path.dropFirst(".build/debug/".count))
                let dir = try #require(broker, "the page starts \(name) before mosquitto").directory
                if let i = arguments.firstIndex(of: "--trace") {
                    traceURL = dir.appendingPathComponent("readme-trace.csv")
                    arguments[i + 1] = traceURL!.path
                }
                if name == "drone-sim" || name == "drone-link" {
                    arguments += ["--at-port", "\(atPort)", "--navdata-port", "\(navdataPort)"]
                }
                children.append(try ChildProcess(
                    executable: TestEnvironment.executable(name).path, arguments: arguments, name: name,
                    logPath: dir.appendingPathComponent("readme-\(name).log").path,
                    environment: ["QUAD_BROKER": broker!.address]))
            case "mosquitto_sub":
                let dir = try #require(broker).directory
                sub = try ChildProcess(
                    executable: TestEnvironment.requireTool(program), arguments: ["-p", "\(broker!.port)"] + arguments,
                    name: "mosquitto_sub", logPath: dir.appendingPathComponent("readme-sub.log").path)
                children.append(sub!)
            case "mosquitto_pub":
                // A user publishes once the watch shows the services online and the drone talking. (The page's
                // mosquitto_sub writes to a file here, block-buffered, so ask with short-lived ones that exit.)
                _ = try #require(sub, "the page publishes before mosquitto_sub")
                let port = broker!.port
                let dir = broker!.directory
                try await eventually(timeout: TestEnvironment.readinessTimeout, "services online") {
                    let statuses = try Self.receive(port: port, dir: dir, topic: "quad/drone1/status/#", count: 3).lines
                    let online = ["drone-link", "navigator", "drone-controller"].allSatisfy { service in
                        statuses.contains {
                            $0.hasPrefix("quad/drone1/status/\(service) ") && $0.contains(#""state":"online""#)
                        }
                    }
                    return try online && Self.receive(port: port, dir: dir, topic: "quad/drone1/telemetry/drone",
                        count: 1).received
                }
                // A takeoff needs fresh drone state in the controller: its own word that it has seen the drone,
                // not a guessed 300 ms after the test saw navdata.
                let controller = try #require(children.first { $0.name == "drone-controller" })
                try await eventually(timeout: TestEnvironment.readinessTimeout, "the controller knows the drone") {
                    controller.output().contains("landed (drone-landed)")
                }
                if let m = arguments.firstIndex(of: "-m"), arguments[m - 1] == "quad/drone1/target" {
                    target = try Self.point(json: arguments[m + 1])
                }
                let pub = try ChildProcess(
                    executable: TestEnvironment.requireTool(program), arguments: ["-p", "\(broker!.port)"] + arguments,
                    name: "mosquitto_pub", logPath: broker!.directory.appendingPathComponent("readme-pub.log").path)
                #expect(pub.waitForExit(timeout: TestEnvironment.readinessTimeout) == 0, "\(pub.output())")
            default:
                Issue.record("docs/flying.md's Run it by hand has a command this test does not know: \(words)")
            }
        }

        let goal = try #require(target, "the page sends no target")
        let trace = try #require(traceURL, "the page's drone-sim writes no --trace")
        func logs() -> String { children.map { "--- \($0.name)\n\($0.output().suffix(1500))" }.joined(separator: "\n") }
        func rows() -> [TraceRow] {
            guard let text = try? String(contentsOf: trace, encoding: .utf8) else { return [] }
            return text.split(separator: "\n").dropFirst().compactMap(TraceRow.init)
        }
        let start = try #require(rows().first, "no trace\n\(logs())")
        #expect(start.distanceM(to: goal) > 20, "the page's target should be a real flight from drone-sim's home")
        #expect(start.distanceM(to: goal) < 200, "the page's target must lie inside the controller's geofence")
        try await eventually(timeout: .seconds(150), "drone within 2 m of the page's target\n\(logs())") {
            rows().contains { $0.isAirborne && $0.distanceM(to: goal) < 2 }
        }
        #expect(rows().contains { $0.flightState == "taking_off" })
    }

    /// Up to `count` messages on `topic` within 2 s (retained ones at once): whether `count` came (mosquitto_sub
    /// exits 0), and the `-v` lines when they are text (binary telemetry is not UTF-8).
    static func receive(port: UInt16, dir: URL, topic: String, count: Int) throws -> (received: Bool,
        lines: [Substring]) {
        let child = try ChildProcess(
            executable: TestEnvironment.requireTool("mosquitto_sub"),
            arguments: ["-p", "\(port)", "-t", topic, "-v", "-C", "\(count)", "-W", "2"],
            name: "mosquitto_sub", logPath: dir.appendingPathComponent("readme-probe.log").path)
        // -W 2 is mosquitto_sub's own clock; this only catches a hang (a slow start is retried by the caller).
        let code = child.waitForExit(timeout: .seconds(10))
        return (code == 0, child.output().split(separator: "\n"))
    }

    static func point(json: String) throws -> GeoPoint {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Double])
        return GeoPoint(latitudeDeg: try #require(object["lat"]), longitudeDeg: try #require(object["lon"]))
    }
}
