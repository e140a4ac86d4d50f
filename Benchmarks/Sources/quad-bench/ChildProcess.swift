import Foundation

/// A process the bench started (posix_spawn), stdout to a file (or a log), stderr to the log. Stopped by its own
/// pid only.
final class ChildProcess: @unchecked Sendable {
    let name: String
    let pid: pid_t
    let logPath: String
    private var exitStatus: Int32?
    private let lock = NSLock()

    struct SpawnFailure: Error, CustomStringConvertible {
        var executable: String
        var errorNumber: Int32
        var description: String { "cannot start \(executable): \(String(cString: strerror(errorNumber)))" }
    }

    /// - Parameter stdoutPath: where stdout goes (like `> file`); default: the log.
    init(_ executable: String, _ arguments: [String], name: String, logDirectory: String,
         stdoutPath: String? = nil) throws {
        self.name = name
        logPath = "\(logDirectory)/\(name).log"
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, logPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        if let stdoutPath {
            posix_spawn_file_actions_addopen(&actions, 1, stdoutPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        } else {
            posix_spawn_file_actions_adddup2(&actions, 2, 1)
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var child: pid_t = 0
        let rc = posix_spawn(&child, executable, &actions, &attributes, argv, envp)
        guard rc == 0 else { throw SpawnFailure(executable: executable, errorNumber: rc) }
        pid = child
    }

    /// Exit code (128+signal when killed) once it ended; nil while it runs.
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

    func log() -> String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    func waitForExit(timeoutS: Double) -> Int32? {
        let deadline = BenchClock.monotonicNs() + Int64(timeoutS * 1e9)
        repeat {
            if let code = exitCode() { return code }
            usleep(5_000)
        } while BenchClock.monotonicNs() < deadline
        return exitCode()
    }

    /// SIGTERM, then SIGKILL after `timeoutS`.
    @discardableResult
    func stop(timeoutS: Double = 10) -> Int32 {
        if let code = exitCode() { return code }
        kill(pid, SIGTERM)
        if let code = waitForExit(timeoutS: timeoutS) { return code }
        kill(pid, SIGKILL)
        return waitForExit(timeoutS: 5) ?? -1
    }

    deinit {
        if exitCode() == nil {
            kill(pid, SIGKILL)
            _ = waitForExit(timeoutS: 5)
        }
    }
}
