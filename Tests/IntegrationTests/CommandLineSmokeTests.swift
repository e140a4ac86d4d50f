import BrokerNodes
import Foundation
import ProcessSupport
import Testing

/// The executables as a shell runs them: negative numbers on the command line, and `--help` text.
@Suite("command line smoke", .offPool)
struct CommandLineSmokeTests {
    func run(_ name: String, _ arguments: [String], timeoutS: Double = 20) throws -> (Int32?, String) {
        let dir = try TestEnvironment.temporaryDirectory("cli")
        defer { TestEnvironment.removeTemporaryDirectory(dir) }
        let child = try ChildProcess(executable: TestEnvironment.executable(name).path, arguments: arguments,
                                     logDirectory: dir)
        let code = child.waitForExit(timeout: .seconds(timeoutS))
        if code == nil { child.stop(signal: SIGKILL) }
        return (code, child.output())
    }

    @Test("navigator solve with southern coordinates and the article's -90 mount offset")
    func navigatorSolve() throws {
        let (code, output) = try run("navigator", ["solve", "--from", "-33.86,151.2", "--to=-33.87,151.21",
                                                   "--heading", "-45", "--mount-offset", "-90"])
        #expect(code == 0, "\(output)")
        #expect(output.contains("\"distance"), "\(output)")
    }

    @Test("drone-sim starts with --home -16.5,179.99985 and --heading -90")
    func droneSimHome() async throws {
        let dir = try TestEnvironment.temporaryDirectory("cli-sim")
        defer { TestEnvironment.removeTemporaryDirectory(dir) }
        let at = try freeLoopbackPort(udp: true)
        var nav = try freeLoopbackPort(udp: true)
        while nav == at { nav = try freeLoopbackPort(udp: true) }
        let trace = dir.appendingPathComponent("trace.csv")
        let sim = try ChildProcess(
            executable: TestEnvironment.executable("drone-sim").path,
            arguments: ["--home", "-16.5,179.99985", "--heading", "-90", "--at-port", "\(at)", "--navdata-port",
                "\(nav)",
                        "--trace", trace.path],
            logDirectory: dir)
        defer { sim.stop(signal: SIGKILL) }
        // Its start line sits in a stdout buffer; the ground-truth trace says where it is.
        func firstRow() -> TraceRow? {
            let text = (try? String(contentsOf: trace, encoding: .utf8)) ?? ""
            return text.split(separator: "\n").dropFirst().first.flatMap(TraceRow.init)
        }
        try await eventually(timeout: TestEnvironment.readinessTimeout,
                             "drone-sim's trace\n\(sim.output())") { firstRow() != nil }
        let row = try #require(firstRow())
        #expect(abs(row.position.latitudeDeg + 16.5) < 1e-4 && abs(row.position.longitudeDeg - 179.99985) < 1e-4)
        #expect(abs(row.headingDeg - 270) < 1 || abs(row.headingDeg + 90) < 1, "\(row.headingDeg)")
        #expect(sim.isRunning, "\(sim.output())")
    }

    static let helps: [(String, [String])] = [
        ("drone-sim", []), ("drone-link", []), ("drone-controller", []), ("navigator", ["run"]),
        ("navigator", ["solve"]),
        ("location-broadcaster", ["target"]), ("location-broadcaster", ["follow"]), ("location-broadcaster", ["route"]),
        ("location-broadcaster", ["takeoff"]), ("location-broadcaster", ["status"]),
        ("location-broadcaster", ["status", "--all"]), ("telemetry-logger", ["record"]),
        ("telemetry-logger", ["tail"]), ("telemetry-logger", ["export"]), ("telemetry-logger", ["replay"]),
        ("telemetry-logger", ["sync"]),
    ]

    @Test("no --help prints a Swift value dump as a default", arguments: helps.indices)
    func help(_ index: Int) throws {
        let (name, sub) = Self.helps[index]
        let (code, output) = try run(name, sub + ["--help"])
        #expect(code == 0, "\(output)")
        #expect(output.contains("USAGE:"), "\(output)")
        #expect(!output.contains("Option("), "\(output)")
        #expect(output.range(of: #"\(default: [^)]*\("#, options: .regularExpression) == nil, "\(output)")
        #expect(output.range(of: #"[A-Za-z]+\([a-z]+: "#, options: .regularExpression) == nil, "\(output)")
        // A multi-line help string without its trailing `\` leaves a run of spaces mid-sentence.
        #expect(output.range(of: #"[a-z;,.] {4,}[a-z]"#, options: .regularExpression) == nil, "\(output)")
    }
}

/// deploy/'s drone-link.env sets the AR.Drone's address as QUAD_DRONE_ADDRESS: drone-link reads it (it did not, and
/// a changed address in the env file was silently ignored); a flag still wins; a bad one is named by its source.
@Suite("drone-link reads QUAD_DRONE_ADDRESS", .offPool)
struct DroneLinkEnvironmentTests {
    func start(_ arguments: [String], address: String) throws -> (ChildProcess, URL) {
        let dir = try TestEnvironment.temporaryDirectory("link-env")
        let child = try ChildProcess(executable: TestEnvironment.executable("drone-link").path,
                                     arguments: ["--broker", "127.0.0.1:1"] + arguments, logDirectory: dir,
                                     environment: ["QUAD_DRONE_ADDRESS": address])
        return (child, dir)
    }

    @Test("the env file's address is used; --address wins over it")
    func environmentThenFlag() async throws {
        for (arguments, expected) in [([String](), "127.0.0.2"), (["--address", "127.0.0.3"], "127.0.0.3")] {
            let (child, dir) = try start(arguments, address: "127.0.0.2")
            defer { child.stop(signal: SIGTERM); TestEnvironment.removeTemporaryDirectory(dir) }
            try await eventually(timeout: .seconds(30), "AT commands to \(expected)\n\(child.output())") {
                child.output().contains("AT commands to \(expected):5556")
            }
        }
    }

    @Test("a bad QUAD_DRONE_ADDRESS exits 64 naming the variable")
    func badEnvironment() throws {
        let (child, dir) = try start([], address: "300.1.1.1")
        defer { child.stop(signal: SIGKILL); TestEnvironment.removeTemporaryDirectory(dir) }
        #expect(child.waitForExit(timeout: .seconds(30)) == 64, "\(child.output())")
        #expect(child.output().contains("QUAD_DRONE_ADDRESS '300.1.1.1'"), "\(child.output())")
    }
}
