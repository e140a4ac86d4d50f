import Foundation
import ProcessSupport

/// The private venv `scripts/ensure-python-deps.sh` makes (pinned pymavlink and mavsdk), used as independent
/// MAVLink oracles. `QUAD_PYTHON` overrides its path.
enum PythonTools {
    static let python: String = ProcessInfo.processInfo.environment["QUAD_PYTHON"]
        ?? TestEnvironment.repoRoot.appendingPathComponent(".build/python-venv/bin/python3").path

    static let scripts = TestEnvironment.repoRoot.appendingPathComponent("Tests/IntegrationTests/MAVLink")

    /// For `.enabled(if:)`: outside CI a missing venv skips (run `make deps`); under CI=true the test runs and fails.
    static var available: Bool {
        TestEnvironment.isCI || FileManager.default.isExecutableFile(atPath: python)
    }

    static func requirePython() throws -> String {
        guard FileManager.default.isExecutableFile(atPath: python) else {
            throw TestEnvironmentError.missing("\(python) (run `make deps` or scripts/ensure-python-deps.sh)")
        }
        return python
    }

    /// Runs one of the scripts next to the MAVLink tests; returns its exit status and output.
    /// The wait runs on a thread of its own (`onThread`): these runs take up to a minute.
    static func run(_ script: String, _ arguments: [String], logDirectory: URL, timeoutS: Double)
        async throws -> (status: Int32?, output: String) {
        let child = try ChildProcess(executable: try requirePython(),
                                     arguments: [scripts.appendingPathComponent(script).path] + arguments,
                                     logDirectory: logDirectory)
        let status = try await onThread { child.waitForExit(timeout: .seconds(timeoutS)) }
        if status == nil { child.stop() }
        return (status, child.output())
    }
}
