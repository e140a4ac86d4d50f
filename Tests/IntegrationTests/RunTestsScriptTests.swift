import Foundation
import ProcessSupport
import Testing

/// scripts/run-tests.sh, `make test`'s runner and watchdog, around a fake `swift` (first on PATH) that behaves like a
/// test run that hangs, dies, overruns, leaves a child behind or passes. What it must say and how it must end.
@Suite("run-tests.sh watchdog", .offPool, .enabled(if: TestEnvironment.available("bash", "python3", "pkill")))
struct RunTestsScriptTests {
    /// The fake: writes a testStarted event to the path it is given, then does what FAKE_MODE says.
    static let fakeSwift = #"""
        #!/usr/bin/env bash
        while [[ $# -gt 0 ]]; do [[ $1 == --event-stream-output-path ]] && events=$2; shift; done
        event() {
          local payload="{\"kind\":\"$1\",\"testID\":\"Fake.$2\",\"instant\":{\"absolute\":1}}"
          echo "{\"kind\":\"event\",\"payload\":$payload,\"version\":0}" >> "$events"
        }
        passed() { echo "✔ Test run with 1 test in 1 suite passed after $1 seconds."; }
        event testStarted "stuck()"
        case $FAKE_MODE in
          hang) sleep 600 & echo $! > "$FAKE_CHILD_PID"; wait ;;
          die) kill -KILL $$ ;;
          overrun) for i in $(seq 1 600); do event testStarted "tick$i()"; event testEnded "tick$i()"; sleep 1; done ;;
          leave) sleep 600 & echo $! > "$FAKE_CHILD_PID"; event testEnded "stuck()"; passed 0.1; exit 0 ;;
          pass) event testEnded "stuck()"; passed 0.1; exit 0 ;;
          quiet-exit) event testEnded "stuck()"; exit 0 ;;
          litter) bash -c 'mkdir "${TMPDIR:-/tmp}/quad-litter-$$-1"; sleep 3; exit 0' PackageTests.xctest
                  event testEnded "stuck()"; passed 3.1; exit 0 ;;
        esac
        """#

    struct Run {
        let exitCode: Int32
        let output: String
        let directory: URL
    }

    func run(_ mode: String, _ environment: [String: String] = [:]) async throws -> Run {
        let directory = try TestEnvironment.temporaryDirectory("run-tests")
        let bin = directory.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let swift = bin.appendingPathComponent("swift")
        try Self.fakeSwift.write(to: swift, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: swift.path)
        let path = bin.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let script = TestEnvironment.repoRoot.appendingPathComponent("scripts/run-tests.sh").path
        let child = try ChildProcess(executable: TestEnvironment.requireTool("bash"), arguments: [script],
                                     name: "run-tests-\(mode)", logDirectory: directory,
                                     environment: ["PATH": path, "FAKE_MODE": mode,
                                                   "FAKE_CHILD_PID": directory.appendingPathComponent("child.pid").path]
                                        .merging(environment) { $1 })
        let code = try await onThread { child.waitForExit(timeout: .seconds(120)) }
        let output = child.output()
        if code == nil { child.stop(signal: SIGKILL) }
        return Run(exitCode: code ?? -1, output: output, directory: directory)
    }

    /// Whether the `sleep 600` the fake started still runs (it must not: the run's session is stopped).
    func fakeChildRunning(_ directory: URL) -> Bool {
        guard let text = try? String(contentsOf: directory.appendingPathComponent("child.pid"), encoding: .utf8),
              let pid = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)) else { return false }
        // A zombie waiting for its reaper has ended too: only a process that is not `Z` still runs.
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let afterName = stat.range(of: ") ") else { return false }
        return stat[afterName.upperBound...].first != "Z"
    }

    @Test("QUAD_TEST_STALL_S: no test starts or ends for that long → the stuck test named, the run stopped, exit 124")
    func stall() async throws {
        let run = try await run("hang", ["QUAD_TEST_STALL_S": "3"])
        defer { TestEnvironment.removeTemporaryDirectory(run.directory) }
        #expect(run.exitCode == 124, "\(run.output)")
        #expect(run.output.contains("no test started or ended for 3 s"), "\(run.output)")
        #expect(run.output.contains("never ended: Fake.stuck()"), "\(run.output)")
        #expect(!fakeChildRunning(run.directory))
    }

    @Test("QUAD_TEST_LIMIT_S: a run still going (tests keep ending) past the limit is stopped, exit 124")
    func limit() async throws {
        let run = try await run("overrun", ["QUAD_TEST_LIMIT_S": "6"])
        defer { TestEnvironment.removeTemporaryDirectory(run.directory) }
        #expect(run.exitCode == 124, "\(run.output)")
        #expect(run.output.contains("still running after 6 s"), "\(run.output)")
    }

    @Test("a test process that dies: its exit code and the tests it was running")
    func death() async throws {
        let run = try await run("die")
        defer { TestEnvironment.removeTemporaryDirectory(run.directory) }
        #expect(run.exitCode == 137, "\(run.output)")
        #expect(run.output.contains("ended (exit 137) before its run did"), "\(run.output)")
        #expect(run.output.contains("never ended: Fake.stuck()"), "\(run.output)")
    }

    @Test("what a passing run leaves running is named and stopped; the run still passes")
    func leftovers() async throws {
        let run = try await run("leave")
        defer { TestEnvironment.removeTemporaryDirectory(run.directory) }
        #expect(run.exitCode == 0, "\(run.output)")
        #expect(run.output.contains("processes the test run left running (stopped now)"), "\(run.output)")
        #expect(run.output.contains("sleep 600"), "\(run.output)")
        #expect(!fakeChildRunning(run.directory))
    }

    @Test("exit 0 without the summary line fails: the test process ended early")
    func noSummary() async throws {
        let run = try await run("quiet-exit")
        defer { TestEnvironment.removeTemporaryDirectory(run.directory) }
        #expect(run.exitCode == 1, "\(run.output)")
        #expect(run.output.contains("exited 0 without the test run's summary"), "\(run.output)")
    }

    @Test("what a passing run's test process leaves in TMPDIR fails the run, named, then removed; the rest is kept")
    func leftInTemporaryDirectory() async throws {
        let tmp = try TestEnvironment.temporaryDirectory("run-tests-tmp")
        defer { TestEnvironment.removeTemporaryDirectory(tmp) }
        // Not the run's: there before it, and a name of another process's.
        let before = tmp.appendingPathComponent("quad-before-1-1")
        try FileManager.default.createDirectory(at: before, withIntermediateDirectories: true)
        let run = try await run("litter", ["TMPDIR": tmp.path])
        defer { TestEnvironment.removeTemporaryDirectory(run.directory) }
        #expect(run.exitCode == 1, "\(run.output)")
        #expect(run.output.contains("the test run left these in \(tmp.path) (removed now):"), "\(run.output)")
        #expect(run.output.contains("  quad-litter-"), "\(run.output)")
        #expect(!run.output.contains("quad-before"), "\(run.output)")
        let left = try FileManager.default.contentsOfDirectory(atPath: tmp.path)
        #expect(left == ["quad-before-1-1"], "\(left)")
    }

    @Test("QUAD_TEST_EVENTS keeps the event stream; a passing run exits 0 and shows swift test's output")
    func keepsEvents() async throws {
        let directory = try TestEnvironment.temporaryDirectory("run-tests-events")
        defer { TestEnvironment.removeTemporaryDirectory(directory) }
        let events = directory.appendingPathComponent("events.jsonl")
        let run = try await run("pass", ["QUAD_TEST_EVENTS": events.path])
        defer { TestEnvironment.removeTemporaryDirectory(run.directory) }
        #expect(run.exitCode == 0, "\(run.output)")
        #expect(run.output.contains("Test run with 1 test in 1 suite passed"), "\(run.output)")
        let kept = try String(contentsOf: events, encoding: .utf8)
        #expect(kept.contains("testStarted") && kept.contains("testEnded"), "\(kept)")
    }
}
