import Foundation
import ProcessSupport

/// A RabbitMQ cluster of `count` nodes on this machine (A, B, C…), the MQTT plugin on each.
///
/// The nodes boot one after the other, each once the one before answers MQTT. Booted in parallel, they race in the
/// plugin's client-id tracker (a Raft group, `mqtt_node`, 3.10): a node that finds a peer whose tracker is not
/// running yet starts its own member with that peer as the only other one, its join fails (an error the plugin does
/// not retry) and it never learns a leader: it refuses every CONNECT ("client ID registration timed out"). Seen in
/// two CI runs with fault flights beside it. In turn, each node finds the tracker running on the ones before it and
/// is added to it, one membership change at a time.
public final class RabbitCluster: BrokerCluster, @unchecked Sendable {
    public let nodes: [RabbitNode]
    public let directory: URL

    /// Starts the nodes under `directory` (created) and sets the mirroring policy; throws if a node never answers.
    public init(count: Int = 3, directory: URL) throws {
        self.directory = directory
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
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
            for node in nodes { try node.startAndWait(timeout: .seconds(180)) }
            try Self.mirrorMQTTQueues(on: nodes[0], home: directory)
        } catch {
            // A failed init runs no deinit: stop what was launched (by pid) before the caller tries again.
            DispatchQueue.concurrentPerform(iterations: nodes.count) { nodes[$0].stop(signal: SIGKILL) }
            throw error
        }
    }

    public static let ctlScript = "/usr/lib/rabbitmq/bin/rabbitmqctl"

    /// The policy deploy/README tells a site to set on a RabbitMQ 3.10 cluster, word for word: every MQTT
    /// subscription queue mirrored on every node. Without it a QoS 1 subscriber's queue
    /// (`mqtt-subscription-<client id>qos1`, durable even for a clean session) lives on the node the client first
    /// connected to, and when that node crashes the same client id is refused on the others ("home node … of
    /// durable queue … is down") until it returns. With it a mirror takes over and the client re-subscribes at once.
    public static let mqttQueuePolicy = ["set_policy", "quad-mqtt-ha", "^mqtt-subscription-",
                                         #"{"ha-mode":"all","ha-sync-mode":"automatic"}"#, "--apply-to", "queues"]

    public static func mirrorMQTTQueues(on node: RabbitNode, home: URL) throws {
        let ctl = try ChildProcess(executable: ctlScript, arguments: ["-n", node.nodeName] + mqttQueuePolicy,
                                   logDirectory: home,
                                   environment: ["HOME": home.path, "RABBITMQ_CONF_ENV_FILE": "/dev/null"])
        guard let code = ctl.waitForExit(timeout: .seconds(120)) else {
            ctl.stop(signal: SIGKILL)
            throw BrokerNodeError.timeout("rabbitmqctl set_policy: \(ctl.output())")
        }
        guard code == 0 else {
            throw BrokerNodeError.timeout("rabbitmqctl set_policy exited \(code): \(ctl.output())")
        }
    }

    /// A cluster whose nodes all answer MQTT, formed again from scratch (new node names, ports and data, in a new
    /// `makeDirectory()`) when one never does (a node that will not boot in time on a loaded machine). Each
    /// attempt's failure is printed; the last one is thrown.
    public static func formed(count: Int, attempts: Int = 2, makeDirectory: () throws -> URL) throws -> RabbitCluster {
        var lastError: (any Error)?
        for attempt in 1...attempts {
            do {
                return try RabbitCluster(count: count, directory: makeDirectory())
            } catch {
                print("rabbitmq cluster: attempt \(attempt) of \(attempts) did not form: "
                      + String(String(describing: error).prefix(300)))
                lastError = error
            }
        }
        throw lastError ?? BrokerNodeError.timeout("rabbitmq cluster did not form")
    }

    public var nodePorts: [UInt16] { nodes.map(\.port) }

    public func stop(signal: Int32) {
        // In parallel: each clean stop takes a few seconds.
        DispatchQueue.concurrentPerform(iterations: nodes.count) { nodes[$0].stop(signal: signal) }
    }

    public func start() throws { for node in nodes { try node.start() } }

    deinit { stop(signal: SIGTERM) }
}
