import Foundation
import QuadMQTT

/// One publish attempt: `user` (nil = anonymous) writes `topic`.
struct WriteAttempt: Sendable, Hashable, CustomStringConvertible {
    var user: String?
    var topic: String
    var payload: String { "\(user ?? "anonymous") wrote \(topic)" }
    var description: String { payload }
}

/// Connects one client per account to a broker that enforces an ACL, publishes a set of attempts, and reports
/// what a privileged observer (`topic read #`) saw. Denied writes are published first and acknowledged (MQTT
/// 3.1.1 acknowledges a publish the ACL drops), so once the allowed ones have arrived a denied one can no longer
/// turn up; a quiet second afterwards is extra margin.
final class ACLProbe: @unchecked Sendable {
    let port: UInt16
    let passwords: [String: String]
    let observer: MessageRecorder
    private(set) var clients: [String: MessageRecorder] = [:]

    init(port: UInt16, passwords: [String: String], observer: String) async throws {
        self.port = port
        self.passwords = passwords
        self.observer = try await MessageRecorder(port: port, username: observer, password: passwords[observer] ?? "",
                                                  filters: ["quad/#"])
    }

    /// The account's connection, subscribed to `quad/#` (it receives only what the ACL lets it read).
    func client(_ user: String) async throws -> MessageRecorder {
        if let client = clients[user] { return client }
        let client = try await MessageRecorder(port: port, username: user, password: passwords[user] ?? "",
                                               filters: ["quad/#"])
        clients[user] = client
        return client
    }

    /// Attempts published twice because the first had no acknowledgement in time (see `publish`).
    private(set) var resent: Set<WriteAttempt> = []

    /// Publishes every attempt at QoS 1 (denied first) and returns the attempts the observer saw, with how often.
    /// `brokerLog` is read when an acknowledgement is late, to say why.
    func publish(denied: [WriteAttempt], allowed: [WriteAttempt], brokerLog: () -> String = { "" }) async throws
        -> [WriteAttempt: Int] {
        for attempt in denied + allowed {
            let client = try await client(attempt.user ?? "")
            let payload = Array(attempt.payload.utf8)
            do {
                try await client.client.publishAndWait(topic: attempt.topic, payload: payload, qos: 1, retain: false,
                                                       timeout: .seconds(20))
            } catch MQTTError.acknowledgementTimeout {
                // Two CI runs in a row (never 8 runs of the suite alone with two burners): `monitor`, connected,
                // got no PUBACK for a denied write, nor for the same write sent again on that connection. The ack
                // only orders the writes, so the probe says so (the client's state, the broker's log) and sends the
                // write once more on a new connection of that account.
                resent.insert(attempt)
                let connected = client.client.isConnected
                let log = brokerLog().split(separator: "\n").suffix(30).joined(separator: "\n")
                print("ACL probe: no PUBACK within 20 s for \(attempt) (client connected: \(connected), "
                      + "pending: \(client.client.pendingAcknowledgements)); sending it again on a new connection. "
                      + "Broker log:\n\(log)")
                client.shutdown()
                clients[attempt.user ?? ""] = nil
                let fresh = try await self.client(attempt.user ?? "")
                try await fresh.client.publishAndWait(topic: attempt.topic, payload: payload, qos: 1,
                                                      retain: false, timeout: TestEnvironment.readinessTimeout)
            }
        }
        try await eventually(timeout: TestEnvironment.readinessTimeout,
                             "allowed writes reach the observer; missing: "
                                 + "\(Set(allowed).subtracting(seen().keys).map(\.payload).sorted()); the observer "
                                 + (observer.client.isConnected ? "connected" : "NOT connected")) {
            Set(allowed).isSubset(of: Set(seen().keys))
        }
        try await Task.sleep(for: .seconds(1))
        return seen()
    }

    private func seen() -> [WriteAttempt: Int] {
        var counts: [WriteAttempt: Int] = [:]
        for message in observer.all {
            let text = String(decoding: message.payload, as: UTF8.self)
            guard let range = text.range(of: " wrote ") else { continue }
            let user = String(text[..<range.lowerBound])
            counts[WriteAttempt(user: user == "anonymous" ? nil : user, topic: message.topic), default: 0] += 1
        }
        return counts
    }

    /// mosquitto_pub without credentials or with a wrong password: the broker must refuse the connection. Its
    /// payload names the user `intruder`, so the observer would count it if it got through.
    func refusedConnection(user: String?, topic: String, logDirectory: URL) throws -> CommandResult {
        var arguments = ["-h", "127.0.0.1", "-p", "\(port)", "-q", "1", "-t", topic, "-m", "intruder wrote \(topic)"]
        if let user { arguments += ["-u", user, "-P", "wrong-password"] }
        return try runCommand(TestEnvironment.requireTool("mosquitto_pub"), arguments, logDirectory: logDirectory,
                              timeoutS: 15)
    }

    func shutdown() {
        observer.shutdown()
        clients.values.forEach { $0.shutdown() }
    }

    deinit { shutdown() }
}
