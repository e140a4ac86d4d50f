import Foundation
import ProcessSupport

/// One RabbitMQ node (Debian's rabbitmq-server, MQTT plugin) of its own: its own node name, MQTT and distribution
/// ports on 127.0.0.1, data and log dirs under the caller's directory; AMQP is off. Never the package's system node.
///
/// Started with RUNNING_UNDER_SYSTEMD so that Debian's start script `exec`s the Erlang VM: the pid we spawn is
/// beam's own, SIGTERM is RabbitMQ's clean shutdown and SIGKILL a crash (beam's helpers, erl_child_setup and
/// inet_gethost, end with it). The epmd daemon the first node starts is shared by every Erlang node on the machine
/// and stays running; it is not ours to stop.
public final class RabbitNode: @unchecked Sendable {
    public static let serverScript = "/usr/lib/rabbitmq/bin/rabbitmq-server"
    public static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: serverScript) }

    /// `quad<pid><random><letter>@localhost`: unique among the test suites and benches running at once (epmd is
    /// shared).
    public let nodeName: String
    public let directory: URL
    /// Holds `.erlang.cookie` (HOME for the node): the nodes of a cluster share it.
    public let home: URL
    public private(set) var port: UInt16 = 0
    public private(set) var distPort: UInt16 = 0
    public private(set) var child: ChildProcess?
    /// Every node of the cluster, this one included (classic peer discovery); empty for a single node.
    public let clusterNodes: [String]

    public var address: String { "127.0.0.1:\(port)" }

    public init(nodeName: String, directory: URL, home: URL, clusterNodes: [String] = []) throws {
        self.nodeName = nodeName
        self.directory = directory
        self.home = home
        self.clusterNodes = clusterNodes
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    /// A single node in `directory`, started and answering MQTT.
    public static func single(directory: URL) throws -> RabbitNode {
        try writeCookie(in: directory)
        let node = try RabbitNode(nodeName: uniqueName("s"), directory: directory, home: directory)
        try node.startAndWait()
        return node
    }

    public static func uniqueName(_ suffix: String) -> String {
        "quad\(getpid())x\(UInt32.random(in: 0...UInt32.max))\(suffix)@localhost"
    }

    public static func writeCookie(in home: URL) throws {
        let cookie = home.appendingPathComponent(".erlang.cookie")
        try "QUADTEST\(UInt64.random(in: 0...UInt64.max))".write(to: cookie, atomically: true, encoding: .utf8)
        chmod(cookie.path, 0o400)
    }

    /// Test suites run in parallel: a port found free may be taken before the node binds it. Then the node starts again
    /// on new ports (its node name stays, so the cluster's peer list stays right).
    public func startAndWait(timeout: Duration = .seconds(180)) throws {
        var lastError: (any Error)?
        for _ in 0..<BrokerStartError.portAttempts {
            try launch(newPorts: true)
            do {
                try waitUntilReady(timeout: timeout)
                return
            } catch BrokerStartError.portTaken(let output) {
                lastError = BrokerNodeError.timeout("rabbitmq \(nodeName): port taken: \(output.suffix(2000))")
            }
        }
        throw lastError ?? BrokerNodeError.timeout("rabbitmq \(nodeName) did not start")
    }

    /// Spawns the node (not waiting). With `newPorts` a fresh MQTT and distribution port and a blank data dir.
    public func launch(newPorts: Bool) throws {
        if newPorts || port == 0 {
            port = try freeLoopbackPort()
            distPort = try freeLoopbackPort()
            while distPort == port { distPort = try freeLoopbackPort() }
            try? FileManager.default.removeItem(at: directory.appendingPathComponent("mnesia"))
        }
        let config = directory.appendingPathComponent("rabbitmq.conf")
        var lines = [
            "listeners.tcp = none",
            "mqtt.listeners.tcp.default = 127.0.0.1:\(port)",
            // Anonymous MQTT clients act as guest, who may log in from loopback only (the default).
            "mqtt.allow_anonymous = true",
            "mqtt.default_user = guest",
            "mqtt.default_pass = guest",
            "log.console = true",
            "log.console.level = info",
            "log.file = false",
        ]
        if !clusterNodes.isEmpty {
            // Every node knows its peers: started in parallel, they form one cluster (3.10 takes a lock for it).
            lines.append("cluster_formation.peer_discovery_backend = classic_config")
            for (index, node) in clusterNodes.enumerated() {
                lines.append("cluster_formation.classic_config.nodes.\(index + 1) = \(node)")
            }
        }
        try (lines.joined(separator: "\n") + "\n").write(to: config, atomically: true, encoding: .utf8)
        let plugins = directory.appendingPathComponent("enabled_plugins")
        try "[rabbitmq_mqtt].\n".write(to: plugins, atomically: true, encoding: .utf8)
        child = try ChildProcess(
            executable: Self.serverScript, arguments: [], name: "rabbitmq-\(nodeName.prefix { $0 != "@" })",
            logDirectory: directory,
            environment: [
                "HOME": home.path,
                // Not /etc/rabbitmq/rabbitmq-env.conf: nothing of the system node's settings.
                "RABBITMQ_CONF_ENV_FILE": "/dev/null",
                "RUNNING_UNDER_SYSTEMD": "true",
                "RABBITMQ_NODENAME": nodeName,
                "RABBITMQ_DIST_PORT": "\(distPort)",
                "RABBITMQ_MNESIA_BASE": directory.appendingPathComponent("mnesia").path,
                "RABBITMQ_LOG_BASE": directory.appendingPathComponent("log").path,
                "RABBITMQ_CONFIG_FILE": config.path,
                "RABBITMQ_ENABLED_PLUGINS_FILE": plugins.path,
            ])
    }

    /// Until the node answers MQTT on its port (RabbitMQ boots in ~10 s here, ~20 s three at once, and took over 90 s
    /// once in a busy run with builds beside it: it was still running its boot steps).
    public func waitUntilReady(timeout: Duration = .seconds(180)) throws {
        guard let child else { throw BrokerNodeError.timeout("rabbitmq \(nodeName) not launched") }
        do {
            try MQTTReadiness.wait(for: child, label: "rabbitmq \(nodeName)", port: port, directory: directory,
                                   portTakenMarker: "eaddrinuse", timeout: timeout, pollUs: 200_000)
        } catch BrokerStartError.portTaken(let output) {
            self.child = nil
            throw BrokerStartError.portTaken(output)
        }
    }

    public func output() -> String { child?.output() ?? "" }

    /// SIGTERM: a clean shutdown (clients get no goodbye either way; their Last Wills are published).
    /// SIGKILL: the node crashes.
    public func stop(signal: Int32) {
        child?.stop(signal: signal, timeout: .seconds(20))
        child = nil
    }

    public func start() throws {
        guard child == nil else { return }
        try launch(newPorts: false)
        try waitUntilReady()
    }

    deinit { stop(signal: SIGTERM) }
}
