import Foundation

/// A process this test started (posix_spawn). Its stdout and stderr go to a log file (`output()`); it is stopped
/// by its own pid, never by name, so nothing the test did not start is touched.
final class ChildProcess: @unchecked Sendable {
    let name: String
    let logURL: URL
    let pid: pid_t
    private let lock = NSLock()
    private var exitStatus: Int32?

    init(executable: String, arguments: [String], name: String? = nil, logDirectory: URL,
         environment: [String: String] = [:]) throws {
        self.name = name ?? URL(fileURLWithPath: executable).lastPathComponent
        logURL = logDirectory.appendingPathComponent("\(self.name)-\(UInt32.random(in: 0...UInt32.max)).log")
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, logURL.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        // The test runner may block or ignore signals; the child must start with a clean slate or SIGTERM
        // never reaches it.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var child: pid_t = 0
        let rc = posix_spawn(&child, executable, &actions, &attributes, argv, envp)
        guard rc == 0 else { throw TestEnvironmentError.missing("spawn \(executable): errno \(rc)") }
        pid = child
    }

    /// Exit status (or 128+signal) once the process has ended; nil while it runs.
    func exitCode() -> Int32? {
        lock.lock()
        defer { lock.unlock() }
        if let exitStatus { return exitStatus }
        var status: Int32 = 0
        guard waitpid(pid, &status, WNOHANG) == pid else { return nil }
        let signal = status & 0x7F
        exitStatus = signal == 0 ? (status >> 8) & 0xFF : 128 + signal
        return exitStatus
    }

    var isRunning: Bool { exitCode() == nil }

    func output() -> String {
        (try? String(contentsOf: logURL, encoding: .utf8)) ?? ""
    }

    /// Sends `signal` and waits up to `timeoutS` for the exit; escalates to SIGKILL. Returns the exit code.
    @discardableResult
    func stop(signal: Int32 = SIGTERM, timeoutS: Double = 5) -> Int32 {
        if let code = exitCode() { return code }
        kill(pid, signal)
        if let code = waitForExit(timeoutS: timeoutS) { return code }
        kill(pid, SIGKILL)
        return waitForExit(timeoutS: 5) ?? -1
    }

    func waitForExit(timeoutS: Double) -> Int32? {
        let deadline = Date().addingTimeInterval(timeoutS)
        repeat {
            if let code = exitCode() { return code }
            usleep(5_000)
        } while Date() < deadline
        return exitCode()
    }

    deinit { if exitCode() == nil { kill(pid, SIGKILL); _ = waitForExit(timeoutS: 5) } }
}
