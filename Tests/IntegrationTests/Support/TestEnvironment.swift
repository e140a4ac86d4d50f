import BrokerNodes
import Foundation
import Testing

/// Where the repo, the built executables and the system tools are. Under CI=true a missing dependency is a
/// failure, never a skip.
enum TestEnvironment {
    static let isCI = ProcessInfo.processInfo.environment["CI"] == "true"
    /// How long a helper waits for something of the environment to be ready (a broker listening, a recorder
    /// connected) before giving up; the wait ends as soon as it is. Not a behaviour bound: on a busy run a fresh
    /// mosquitto printed nothing for over 5 s while two test burners, two more and a booting RabbitMQ ran beside it.
    static let readinessTimeoutS = 60.0
    static let readinessTimeout = Duration.seconds(readinessTimeoutS)
    /// How long a flight phase the simulator flies in a few seconds (airborne, a leg's first metres, landed) may take
    /// before the wait for it counts as a hang. Only that: what a flight test judges is timed on the simulator's clock.
    static let flightPhaseTimeoutS = 60.0
    static let flightPhaseTimeout = Duration.seconds(flightPhaseTimeoutS)

    static let repoRoot: URL = {
        if let root = ProcessInfo.processInfo.environment["QUAD_REPO_ROOT"] { return URL(fileURLWithPath: root) }
        // Tests/IntegrationTests/Support/TestEnvironment.swift → repo root
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
    }()

    static let binDir: URL = {
        if let dir = ProcessInfo.processInfo.environment["QUAD_BIN_DIR"], !dir.isEmpty {
            return URL(fileURLWithPath: dir)
        }
        return repoRoot.appendingPathComponent(".build/debug")
    }()

    static func executable(_ name: String) throws -> URL {
        let url = binDir.appendingPathComponent(name)
        guard FileManager.default.isExecutableFile(atPath: url.path) else {
            throw TestEnvironmentError.missing("\(url.path) (run `swift build` or `make test`)")
        }
        return url
    }

    /// The board's services' aarch64 builds (`make board`), when `make board-flight` sets QUAD_BOARD_BIN_DIR.
    static let boardBinDir: URL? = ProcessInfo.processInfo.environment["QUAD_BOARD_BIN_DIR"].flatMap {
        $0.isEmpty ? nil : URL(fileURLWithPath: $0)
    }
    static let boardServices: Set<String> = ["navigator", "drone-controller", "drone-link", "mavlink-link",
                                             "telemetry-logger"]

    /// How a service starts: a board service from `boardBinDir` when set, through QUAD_BOARD_RUNNER (words split
    /// on spaces, e.g. `qemu-aarch64-static -L ROOT`); everything else, and every service without it, from binDir.
    static func serviceCommand(_ name: String) throws -> (executable: String, arguments: [String]) {
        guard let dir = boardBinDir, boardServices.contains(name) else { return (try executable(name).path, []) }
        let binary = dir.appendingPathComponent(name).path
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            throw TestEnvironmentError.missing("\(binary) (run `make board`)")
        }
        let runner = (ProcessInfo.processInfo.environment["QUAD_BOARD_RUNNER"] ?? "").split(separator: " ")
            .map(String.init)
        guard let first = runner.first else { return (binary, []) }
        return (try requireTool(first), Array(runner.dropFirst()) + [binary])
    }

    /// Absolute path of a system tool, searched on PATH plus the sbin directories.
    static func tool(_ name: String) -> String? { SystemTool.path(name) }

    static func requireTool(_ name: String) throws -> String {
        guard let path = tool(name) else { throw TestEnvironmentError.missing("\(name) (run `make deps`)") }
        return path
    }

    /// Use as `.enabled(if: TestEnvironment.available("mosquitto"))`: outside CI a missing tool skips;
    /// under CI=true the test runs and fails loudly.
    static func available(_ tools: String...) -> Bool {
        isCI || tools.allSatisfy { tool($0) != nil }
    }

    /// A new directory `quad-<label>-<pid>-<random>` in the temporary directory (TMPDIR, else /tmp). Its owner
    /// removes it when done: a test with `defer { removeTemporaryDirectory(…) }`, an object (a broker, a
    /// simulator) when it is released. Whatever is still there when the test process exits (a
    /// suite-wide broker's, one a failed `init` never handed over) is removed then (`TemporaryDirectories`).
    static func temporaryDirectory(_ label: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("quad-\(label)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        TemporaryDirectories.register(url)
        return url
    }

    /// Removes a directory made by `temporaryDirectory`, with everything in it.
    static func removeTemporaryDirectory(_ url: URL) {
        TemporaryDirectories.remove(url)
    }
}

/// Every directory `TestEnvironment.temporaryDirectory` made and nobody has removed yet; those left are removed when
/// the test process exits (after the suite brokers that write in them are stopped: atexit hooks run in reverse order
/// and this one is installed with the first directory, before any broker).
enum TemporaryDirectories {
    nonisolated(unsafe) private static var live: Set<String> = []
    private static let lock = NSLock()
    private static let installHook: Void = { atexit { TemporaryDirectories.removeAll() } }()

    static func register(_ url: URL) {
        _ = installHook
        lock.withLock { _ = live.insert(url.standardizedFileURL.path) }
    }

    static func remove(_ url: URL) {
        lock.withLock { _ = live.remove(url.standardizedFileURL.path) }
        try? FileManager.default.removeItem(at: url)
    }

    /// Left in place at exit (kept for inspection on request, e.g. QUAD_AUTOPILOT_KEEP=1).
    static func keep(_ url: URL) {
        lock.withLock { _ = live.remove(url.standardizedFileURL.path) }
    }

    static func removeAll() {
        let all = lock.withLock { () -> Set<String> in
            defer { live = [] }
            return live
        }
        for path in all { try? FileManager.default.removeItem(atPath: path) }
    }
}

enum TestEnvironmentError: Error, CustomStringConvertible {
    case missing(String)
    case timeout(String)
    var description: String {
        switch self {
        case .missing(let what): "missing dependency: \(what)"
        case .timeout(let what): "timed out: \(what)"
        }
    }
}

/// Polls `condition` every 20 ms until it holds or `timeout` passes. `what` (the failure's message, usually with the
/// processes' logs) is read at the timeout: read at the call it showed the logs from before the wait — a SkewedClock
/// failure said every service's log was empty when they were only empty at the start.
func eventually(timeout: Duration, _ what: @autoclosure () throws -> String, _ condition: () async throws -> Bool)
    async throws {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: timeout)
    while clock.now < deadline {
        if try await condition() { return }
        try await Task.sleep(for: .milliseconds(20))
    }
    if try await condition() { return }
    throw TestEnvironmentError.timeout(try what())
}
