import BrokerNodes
import Foundation
import ProcessSupport

/// A private mosquitto from a deployment configuration (deploy/*/mosquitto.conf or what install.sh staged): every
/// `listener` moved to its own free 127.0.0.1 port (in a namespace: to its own port, bound as configured), the
/// bridge `address` (if asked) pointed at a loopback port, every file the configuration names (password file, ACL,
/// certificates) replaced by a test copy, and `http_dir` (the live map's page) pointed at `httpDirectory` (default:
/// the repo's web/map). Stopped by pid.
///
/// Started as root, mosquitto drops to the `mosquitto` user before it reads the password file and the ACL, so the
/// copies are 0644 in a 0755 directory (the deployed files are 0600/0640 mosquitto-owned; the test only needs the
/// broker to read them, not their modes — install.sh's modes are checked separately).
final class DeployedBroker: @unchecked Sendable {
    let label: String
    let directory: URL
    /// Listener ports in the order of the `listener` lines.
    let ports: [UInt16]
    /// The configured port of each listener (1883, 8883, 9001) → the port it was moved to.
    let listenerPorts: [UInt16: UInt16]
    let configURL: URL
    /// Runs in this network namespace (`ip netns exec`), listening on every address there (see `RadioNamespaces`).
    let namespace: String?
    private(set) var child: ChildProcess?

    var port: UInt16 { ports[0] }

    /// Where the configuration's `listener <configured>` listens here.
    func port(forListener configured: UInt16) throws -> UInt16 {
        guard let port = listenerPorts[configured] else {
            throw DeployedBrokerError.notInConfig("listener \(configured)")
        }
        return port
    }

    /// - Parameters:
    ///   - config: the configuration text.
    ///   - files: path as written in the configuration → contents of the test copy.
    ///   - bridgeToPort: rewrites `address HOST:PORT` to `127.0.0.1:<port>`; the config must have a bridge.
    ///   - bridgeHost: the bridge's host (default 127.0.0.1), e.g. the ground's address across a veth pair.
    ///   - extraConfig: lines appended (e.g. `log_type all` while debugging).
    ///   - namespace: run in this network namespace; listeners then bind every address of the namespace.
    init(label: String, config: String, files: [String: String] = [:], bridgeToPort: UInt16? = nil,
         bridgeHost: String = "127.0.0.1",
         httpDirectory: URL = TestEnvironment.repoRoot.appendingPathComponent("web/map"), extraConfig: String = "",
         namespace: String? = nil) throws {
        self.label = label
        self.namespace = namespace
        directory = try TestEnvironment.temporaryDirectory("deployed-\(label)")
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory.path)
        var text = config
        for (original, contents) in files.sorted(by: { $0.key < $1.key }) {
            let copy = directory.appendingPathComponent(URL(fileURLWithPath: original).lastPathComponent)
            try contents.write(to: copy, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: copy.path)
            guard text.contains(original) else { throw DeployedBrokerError.notInConfig(original) }
            text = text.replacingOccurrences(of: original, with: copy.path)
        }
        var ports: [UInt16] = []
        var listenerPorts: [UInt16: UInt16] = [:]
        var sawBridgeAddress = false
        var lines: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let words = line.split(separator: " ", omittingEmptySubsequences: true)
            if words.first == "listener" {
                let port = try Self.freePort(excluding: ports)
                ports.append(port)
                if words.count > 1, let configured = UInt16(words[1]) { listenerPorts[configured] = port }
                // In a namespace a listener keeps its binding: the plain one on loopback must stay unreachable
                // from the other host.
                let bind = words.count > 2 ? " \(words[2])" : ""
                lines.append(namespace == nil ? "listener \(port) 127.0.0.1" : "listener \(port)\(bind)")
            } else if words.first == "http_dir" {
                lines.append("http_dir \(httpDirectory.path)")
            } else if words.first == "address", let bridgeToPort {
                sawBridgeAddress = true
                lines.append("address \(bridgeHost):\(bridgeToPort)")
            } else {
                lines.append(String(line))
            }
        }
        guard !ports.isEmpty else { throw DeployedBrokerError.noListener }
        if bridgeToPort != nil, !sawBridgeAddress { throw DeployedBrokerError.notInConfig("address") }
        self.ports = ports
        self.listenerPorts = listenerPorts
        lines.append(extraConfig)
        // In a namespace the host cannot probe the ports: readiness is read from the log.
        if namespace != nil {
            lines.append("log_dest stderr\nlog_type error\nlog_type warning\nlog_type notice\nlog_type information\n")
        }
        configURL = directory.appendingPathComponent("mosquitto.conf")
        try lines.joined(separator: "\n").write(to: configURL, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: configURL.path)
        try start()
    }

    private static func freePort(excluding taken: [UInt16]) throws -> UInt16 {
        for _ in 0..<10 {
            let port = try freeLoopbackPort()
            if !taken.contains(port) { return port }
        }
        throw DeployedBrokerError.noListener
    }

    func start() throws {
        guard child?.isRunning != true else { return }
        let mosquitto = try TestEnvironment.requireTool("mosquitto")
        if let namespace {
            child = try ChildProcess(executable: TestEnvironment.requireTool("ip"),
                                     arguments: ["netns", "exec", namespace, mosquitto, "-c", configURL.path],
                                     name: "mosquitto-\(label)", logDirectory: directory)
        } else {
            child = try ChildProcess(executable: mosquitto, arguments: ["-c", configURL.path],
                name: "mosquitto-\(label)",
                                     logDirectory: directory)
        }
        let deadline = Date().addingTimeInterval(TestEnvironment.readinessTimeoutS)
        func ready() -> Bool {
            namespace == nil ? ports.allSatisfy(tcpPortAccepts) : output().contains(" running")
        }
        while !ready() {
            guard Date() < deadline, child?.isRunning == true else {
                throw TestEnvironmentError.timeout("mosquitto \(label) on ports \(ports): \(output())")
            }
            usleep(20_000)
        }
    }

    /// SIGTERM for a clean stop, SIGKILL to simulate the machine vanishing.
    func stop(signal: Int32 = SIGTERM) {
        child?.stop(signal: signal)
    }

    func output() -> String { child?.output() ?? "" }

    deinit {
        stop()
        TestEnvironment.removeTemporaryDirectory(directory)
    }
}

enum DeployedBrokerError: Error, CustomStringConvertible {
    case noListener
    case notInConfig(String)
    var description: String {
        switch self {
        case .noListener: "the configuration has no listener line"
        case .notInConfig(let what): "the configuration does not mention \(what)"
        }
    }
}
