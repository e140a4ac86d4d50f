import Foundation
import ProcessSupport

/// Two Linux network namespaces, "ground" and "board", joined by a veth pair: the radio. Each has its own loopback
/// and port space, so the deploy/ configs run with their own ports. The radio is cut by taking its interfaces
/// down (this kernel has no netem: links are cut, not shaped). Needs root; deleted (with the veth pair) on `remove`.
final class RadioNamespaces: @unchecked Sendable {
    let ground: String
    let board: String
    let groundAddress: String
    let boardAddress: String
    private let groundInterface: String
    private let boardInterface: String
    private let ip: String
    private let logDirectory: URL

    /// Why namespaces cannot be made here (not root, no `ip`), or nil when they can.
    static func unavailableReason() -> String? {
        guard getuid() == 0 else { return "network namespaces need root" }
        guard TestEnvironment.tool("ip") != nil else { return "no `ip` (iproute2)" }
        return nil
    }

    init() throws {
        ip = try TestEnvironment.requireTool("ip")
        logDirectory = try TestEnvironment.temporaryDirectory("radio")
        // Names unique per process and run (two rehearsals may run at once); interface names ≤ 15 bytes.
        let tag = "\(getpid() % 100_000)\(UInt8.random(in: 0...255))"
        ground = "qg\(tag)"
        board = "qb\(tag)"
        groundInterface = "vg\(tag)"
        boardInterface = "vb\(tag)"
        let subnet = "10.\(UInt8.random(in: 64...127)).\(UInt8.random(in: 0...255))"
        groundAddress = "\(subnet).1"
        boardAddress = "\(subnet).2"
        do {
            try run(["netns", "add", ground])
            try run(["netns", "add", board])
            try run(["link", "add", groundInterface, "type", "veth", "peer", "name", boardInterface])
            try run(["link", "set", groundInterface, "netns", ground])
            try run(["link", "set", boardInterface, "netns", board])
            try run(["-n", ground, "addr", "add", "\(groundAddress)/24", "dev", groundInterface])
            try run(["-n", board, "addr", "add", "\(boardAddress)/24", "dev", boardInterface])
            for (namespace, interface) in [(ground, groundInterface), (board, boardInterface)] {
                try run(["-n", namespace, "link", "set", "lo", "up"])
                try run(["-n", namespace, "link", "set", interface, "up"])
            }
        } catch {
            remove()
            throw error
        }
    }

    /// The radio goes silent both ways (packets are dropped; TCP connections are not told).
    func cut() throws {
        try run(["-n", ground, "link", "set", groundInterface, "down"])
        try run(["-n", board, "link", "set", boardInterface, "down"])
    }

    func restore() throws {
        try run(["-n", ground, "link", "set", groundInterface, "up"])
        try run(["-n", board, "link", "set", boardInterface, "up"])
    }

    /// A process in one namespace (`ip netns exec` execs in place: the pid is the program's, stopped by pid).
    func start(in namespace: String, _ executable: String, _ arguments: [String], name: String,
               logDirectory: URL, environment: [String: String] = [:]) throws -> ChildProcess {
        try ChildProcess(executable: ip, arguments: ["netns", "exec", namespace, executable] + arguments, name: name,
                         logDirectory: logDirectory, environment: environment)
    }

    /// Runs a command in a namespace to completion.
    func run(in namespace: String, _ executable: String, _ arguments: [String], logDirectory: URL,
             environment: [String: String] = [:], timeoutS: Double = 60) throws -> CommandResult {
        try runCommand(ip, ["netns", "exec", namespace, executable] + arguments, logDirectory: logDirectory,
                       timeoutS: timeoutS, environment: environment)
    }

    /// Deleting a namespace deletes its end of the veth pair, and with it the pair.
    func remove() {
        for namespace in [ground,
            board] { _ = try? runCommand(ip, ["netns", "del", namespace], logDirectory: logDirectory) }
    }

    deinit {
        remove()
        TestEnvironment.removeTemporaryDirectory(logDirectory)
    }

    private func run(_ arguments: [String]) throws {
        let result = try runCommand(ip, arguments, logDirectory: logDirectory, timeoutS: 10)
        guard result.exitCode == 0 else {
            throw TestEnvironmentError.missing("ip \(arguments.joined(separator: " ")): \(result.output)")
        }
    }
}
