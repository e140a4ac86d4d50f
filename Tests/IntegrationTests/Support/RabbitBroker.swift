import Foundation
import ProcessSupport

/// One RabbitMQ node (Debian's rabbitmq-server, MQTT plugin) of its own: its own node name, MQTT and distribution
/// ports on 127.0.0.1, data and log dirs under a temporary directory; AMQP is off. Never the package's system node.
///
/// Started with RUNNING_UNDER_SYSTEMD so that Debian's start script `exec`s the Erlang VM: the pid we spawn is
/// beam's own, SIGTERM is RabbitMQ's clean shutdown and SIGKILL a crash (beam's helpers, erl_child_setup and
/// inet_gethost, end with it). The epmd daemon the first node starts is shared by every Erlang node on the machine
/// and stays running; it is not ours to stop.
final class RabbitNode: TestBroker, @unchecked Sendable {
    static let serverScript = "/usr/lib/rabbitmq/bin/rabbitmq-server"
    static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: serverScript) }

    /// `quad<pid><random><letter>@localhost`: unique among the suites running at once (epmd is shared).
    let nodeName: String
    let directory: URL
    /// Holds `.erlang.cookie` (HOME for the node): the nodes of a cluster share it.
    let home: URL
    private(set) var port: UInt16 = 0
    private(set) var distPort: UInt16 = 0
    private(set) var child: ChildProcess?
    /// Every node of the cluster, this one included (classic peer discovery); empty for a single node.
    let clusterNodes: [String]

    var address: String { "127.0.0.1:\(port)" }
    var boardAddress: String { address }

    init(nodeName: String, directory: URL, home: URL, clusterNodes: [String] = []) throws {
        self.nodeName = nodeName
        self.directory = directory
        self.home = home
        self.clusterNodes = clusterNodes
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    /// A single node, started and answering MQTT.
    static func single() throws -> RabbitNode {
        let directory = try TestEnvironment.temporaryDirectory("rabbit")
        try writeCookie(in: directory)
        let node = try RabbitNode(nodeName: uniqueName("s"), directory: directory, home: directory)
        try node.startAndWait()
        return node
    }

    static func uniqueName(_ suffix: String) -> String {
        "quad\(getpid())x\(UInt32.random(in: 0...UInt32.max))\(suffix)@localhost"
    }

    static func writeCookie(in home: URL) throws {
        let cookie = home.appendingPathComponent(".erlang.cookie")
        try "QUADTEST\(UInt64.random(in: 0...UInt64.max))".write(to: cookie, atomically: true, encoding: .utf8)
        chmod(cookie.path, 0o400)
    }

    /// Suites run in parallel: a port found free may be taken before the node binds it. Then the node starts again
    /// on new ports (its node name stays, so the cluster's peer list stays right).
    func startAndWait(timeoutS: Double = 180) throws {
        var lastError: (any Error)?
        for _ in 0..<BrokerProcess.portAttempts {
            try launch(newPorts: true)
            do {
                try waitUntilReady(timeoutS: timeoutS)
                return
            } catch BrokerProcess.BrokerStartError.portTaken(let output) {
                lastError = TestEnvironmentError.timeout("rabbitmq \(nodeName): port taken: \(output.suffix(2000))")
            }
        }
        throw lastError ?? TestEnvironmentError.timeout("rabbitmq \(nodeName) did not start")
    }

    /// Spawns the node (not waiting). With `newPorts` a fresh MQTT and distribution port and a blank data dir.
    func launch(newPorts: Bool) throws {
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
    func waitUntilReady(timeoutS: Double = 180) throws {
        guard let child else { throw TestEnvironmentError.timeout("rabbitmq \(nodeName) not launched") }
        do {
            try waitForMQTT(child, label: "rabbitmq \(nodeName)", port: port, directory: directory,
                            portTakenMarker: "eaddrinuse", timeoutS: timeoutS, pollUs: 200_000)
        } catch BrokerProcess.BrokerStartError.portTaken(let output) {
            self.child = nil
            throw BrokerProcess.BrokerStartError.portTaken(output)
        }
    }

    func output() -> String { child?.output() ?? "" }

    /// SIGTERM: a clean shutdown (clients get no goodbye either way; their Last Wills are published).
    /// SIGKILL: the node crashes.
    func stop(signal: Int32) {
        child?.stop(signal: signal, timeoutS: 20)
        child = nil
    }

    func start() throws {
        guard child == nil else { return }
        try launch(newPorts: false)
        try waitUntilReady()
    }

    deinit { stop(signal: SIGTERM) }
}

/// A RabbitMQ cluster of `count` nodes on this machine (A, B, C…), the MQTT plugin on each.
///
/// The nodes boot one after the other, each once the one before answers MQTT. Booted in parallel, they race in the
/// plugin's client-id tracker (a Raft group, `mqtt_node`, 3.10): a node that finds a peer whose tracker is not
/// running yet starts its own member with that peer as the only other one, its join fails (an error the plugin does
/// not retry) and it never learns a leader: it refuses every CONNECT ("client ID registration timed out"). Seen in
/// two CI runs with fault flights beside it. In turn, each node finds the tracker running on the ones before it and
/// is added to it, one membership change at a time.
final class RabbitCluster: TestBroker, @unchecked Sendable {
    let nodes: [RabbitNode]
    let directory: URL

    init(count: Int = 3) throws {
        let directory = try TestEnvironment.temporaryDirectory("rabbit-cluster")
        self.directory = directory
        try RabbitNode.writeCookie(in: directory)
        let letters = ["a", "b", "c", "d", "e"].prefix(count)
        let stem = "quad\(getpid())x\(UInt32.random(in: 0...UInt32.max))"
        let names = letters.map { "\(stem)\($0)@localhost" }
        nodes = try zip(letters, names).map { letter, name in
            try RabbitNode(nodeName: name, directory: directory.appendingPathComponent(letter), home: directory,
                           clusterNodes: names)
        }
        let nodes = self.nodes
        do {
            // A node whose port was taken starts again on new ports; it joins the others by its (unchanged) name.
            for node in nodes { try node.startAndWait(timeoutS: 180) }
            try Self.mirrorMQTTQueues(on: nodes[0], home: directory)
        } catch {
            // A failed init runs no deinit: stop what was launched (by pid) before the caller tries again.
            DispatchQueue.concurrentPerform(iterations: nodes.count) { nodes[$0].stop(signal: SIGKILL) }
            throw error
        }
    }

    /// The policy deploy/README tells a site to set on a RabbitMQ 3.10 cluster, word for word: every MQTT
    /// subscription queue mirrored on every node. Without it a QoS 1 subscriber's queue
    /// (`mqtt-subscription-<client id>qos1`, durable even for a clean session) lives on the node the client first
    /// connected to, and when that node crashes the same client id is refused on the others ("home node … of
    /// durable queue … is down") until it returns. With it a mirror takes over and the client re-subscribes at once.
    static let mqttQueuePolicy = ["set_policy", "quad-mqtt-ha", "^mqtt-subscription-",
                                  #"{"ha-mode":"all","ha-sync-mode":"automatic"}"#, "--apply-to", "queues"]

    static func mirrorMQTTQueues(on node: RabbitNode, home: URL) throws {
        let result = try runCommand("/usr/lib/rabbitmq/bin/rabbitmqctl", ["-n", node.nodeName] + mqttQueuePolicy,
                                    logDirectory: home, timeoutS: 120,
                                    environment: ["HOME": home.path, "RABBITMQ_CONF_ENV_FILE": "/dev/null"])
        guard result.exitCode == 0 else {
            throw TestEnvironmentError.timeout("rabbitmqctl set_policy exited \(result.exitCode): \(result.output)")
        }
    }

    /// A cluster whose nodes all answer MQTT, formed again from scratch (new node names, ports and data) when one
    /// never does (a node that will not boot in time on a loaded machine). Each attempt's failure is printed; the
    /// last one is thrown.
    static func formed(count: Int, attempts: Int = 2) throws -> RabbitCluster {
        var lastError: (any Error)?
        for attempt in 1...attempts {
            do {
                return try RabbitCluster(count: count)
            } catch {
                print("rabbitmq cluster: attempt \(attempt) of \(attempts) did not form: \(String(describing: error).prefix(300))")
                lastError = error
            }
        }
        throw lastError ?? TestEnvironmentError.timeout("rabbitmq cluster did not form")
    }

    /// Ground tools: B first.
    var port: UInt16 { nodes[1].port }
    var address: String { ([nodes[1]] + nodes.dropFirst(2) + [nodes[0]]).map(\.address).joined(separator: ",") }
    /// Board services: A first.
    var boardAddress: String { nodes.map(\.address).joined(separator: ",") }

    func stop(signal: Int32) {
        // In parallel: each clean stop takes a few seconds.
        DispatchQueue.concurrentPerform(iterations: nodes.count) { nodes[$0].stop(signal: signal) }
    }

    func start() throws { for node in nodes { try node.start() } }

    deinit { stop(signal: SIGTERM) }
}
