import Foundation

/// A process that a test or the bench started (posix_spawn). Its output goes to a log file; it is stopped by its
/// own pid, never by name, so nothing it did not start is touched. Not used by the services.
public final class ChildProcess: @unchecked Sendable {
    public struct SpawnFailure: Error, CustomStringConvertible {
        public var executable: String
        public var errorNumber: Int32
        public var description: String { "cannot start \(executable): \(String(cString: strerror(errorNumber)))" }
    }

    public let name: String
    /// stderr (and stdout unless redirected) of the process.
    public let logPath: String
    public let pid: pid_t
    private let lock = NSLock()
    private var exitStatus: Int32?

    public var logURL: URL { URL(fileURLWithPath: logPath) }

    /// - Parameter stdoutPath: where stdout goes (like `> file`); default: the log.
    public init(executable: String, arguments: [String], name: String, logPath: String, stdoutPath: String? = nil,
                environment: [String: String] = [:]) throws {
        self.name = name
        self.logPath = logPath
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
        // Nothing else of ours: a child that outlives its parent must not hold the parent's pipes or sockets (orphaned
        // brokers once held a test runner's output pipe open for an hour).
        Self.closeFrom3?(&actions, 3)
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
        guard rc == 0 else { throw SpawnFailure(executable: executable, errorNumber: rc) }
        pid = child
    }

    /// The tests' form: log in `logDirectory` under the name plus a random suffix (names repeat within a suite).
    public convenience init(executable: String, arguments: [String], name: String? = nil, logDirectory: URL,
                            environment: [String: String] = [:]) throws {
        let name = name ?? URL(fileURLWithPath: executable).lastPathComponent
        let log = logDirectory.appendingPathComponent("\(name)-\(UInt32.random(in: 0...UInt32.max)).log").path
        try self.init(executable: executable, arguments: arguments, name: name, logPath: log,
                      environment: environment)
    }

    /// The bench's form: `<logDirectory>/<name>.log`.
    public convenience init(_ executable: String, _ arguments: [String], name: String, logDirectory: String,
                            stdoutPath: String? = nil) throws {
        try self.init(executable: executable, arguments: arguments, name: name,
                      logPath: "\(logDirectory)/\(name).log", stdoutPath: stdoutPath)
    }

    /// Exit code (128+signal when killed) once the process has ended; nil while it runs.
    public func exitCode() -> Int32? {
        lock.lock()
        defer { lock.unlock() }
        if let exitStatus { return exitStatus }
        var status: Int32 = 0
        guard waitpid(pid, &status, WNOHANG) == pid else { return nil }
        let signal = status & 0x7F
        exitStatus = signal == 0 ? (status >> 8) & 0xFF : 128 + signal
        return exitStatus
    }

    public var isRunning: Bool { exitCode() == nil }

    /// What the process printed so far.
    public func output() -> String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }
    public func log() -> String { output() }

    /// Sends `signal` and waits up to `timeout` for the exit; escalates to SIGKILL. Returns the exit code.
    @discardableResult
    public func stop(signal: Int32 = SIGTERM, timeout: Duration = .seconds(10)) -> Int32 {
        if let code = exitCode() { return code }
        kill(pid, signal)
        if let code = waitForExit(timeout: timeout) { return code }
        kill(pid, SIGKILL)
        return waitForExit(timeout: .seconds(5)) ?? -1
    }

    /// The exit code once the process ended, or nil if it still runs after `timeout`.
    public func waitForExit(timeout: Duration) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout.seconds)
        repeat {
            if let code = exitCode() { return code }
            usleep(5_000)
        } while Date() < deadline
        return exitCode()
    }

    deinit { if exitCode() == nil { kill(pid, SIGKILL); _ = waitForExit(timeout: .seconds(5)) } }

    /// glibc's posix_spawn_file_actions_addclosefrom_np (2.34+), looked up at run time: its header declares it
    /// only under _GNU_SOURCE, which Swift's Glibc module does not set.
    private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    private static let closeFrom3: AddCloseFrom? = dlsym(UnsafeMutableRawPointer(bitPattern: 0),
                                                         "posix_spawn_file_actions_addclosefrom_np")
        .map { unsafeBitCast($0, to: AddCloseFrom.self) }
}

extension Duration {
    /// In seconds, for Foundation's `TimeInterval`.
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
