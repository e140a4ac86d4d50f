import QuadMQTT
import Synchronization

/// A broker in memory, for unit tests of service logic: its connections satisfy `MQTTConnection` like the real
/// client, so a service's library runs against it without a mosquitto process or a socket.
///
/// What it keeps of MQTT: topic filters with `+` and `#` (mosquitto's own matcher), retained messages (a
/// subscription gets the stored ones first, flagged `retain`; an empty retained payload clears the topic), Last
/// Will on `kill`, and one ordered delivery queue per connection (the real client's `MQTTDispatcher`). What it
/// leaves out: QoS retries, sessions, expiry (a message is delivered at once or never), and refusals unless a test
/// asks for them (`refuse`).
public final class InMemoryBroker: Sendable {
    private struct State {
        var connections: [InMemoryConnection] = []
        var retained: [String: MQTTMessage] = [:]
        var refusedFilters: Set<String> = []
        var published: [MQTTMessage] = []
    }
    private let state = Mutex(State())

    public init() {}

    /// A new client connection; `will` is published if the connection is `kill`ed. `deliversOnPublisherThread`: the
    /// handlers run in the publisher's call, as a board service's run on the network thread (`MQTTDispatcher`'s
    /// `direct`); such handlers must only hand messages on.
    public func connect(clientId: String = "client", will: MQTTMessage? = nil, speaksMQTT5: Bool = true,
                        deliversOnPublisherThread: Bool = false) -> InMemoryConnection {
        let connection = InMemoryConnection(broker: self, clientId: clientId, will: will, speaksMQTT5: speaksMQTT5,
                                            direct: deliversOnPublisherThread)
        state.withLock { $0.connections.append(connection) }
        return connection
    }

    /// Later subscriptions to exactly `filter` are refused, as a broker answering SUBACK 0x80 would.
    public func refuse(filter: String) { state.withLock { _ = $0.refusedFilters.insert(filter) } }

    /// Every message published so far, in order (a test's view of "the bus").
    public var published: [MQTTMessage] { state.withLock { $0.published } }

    /// Published messages on topics matching `filter`.
    public func published(matching filter: String) -> [MQTTMessage] {
        published.filter { MQTTClient.matches(filter: filter, topic: $0.topic) }
    }

    /// The retained message on `topic`, if any.
    public func retained(on topic: String) -> MQTTMessage? { state.withLock { $0.retained[topic] } }

    /// Publishes as a client outside the test's connections (e.g. a ground tool).
    public func inject(_ message: MQTTMessage) { route(message) }

    func route(_ message: MQTTMessage) {
        let targets = state.withLock { s -> [InMemoryConnection] in
            s.published.append(message)
            if message.retain {
                if message.payload.isEmpty {
                    s.retained[message.topic] = nil
                } else {
                    s.retained[message.topic] = message
                }
            }
            return s.connections
        }
        var delivered = message
        delivered.retain = false
        for connection in targets { connection.deliver(delivered) }
    }

    func subscribed(_ connection: InMemoryConnection, filter: String) -> Bool {
        let (refused, stored) = state.withLock { s in
            (s.refusedFilters.contains(filter),
             s.retained.values.filter { MQTTClient.matches(filter: filter, topic: $0.topic) }
                .sorted { $0.topic < $1.topic })
        }
        guard !refused else { return false }
        for message in stored { connection.deliver(message, only: filter) }
        return true
    }

    func disconnected(_ connection: InMemoryConnection, will: MQTTMessage?) {
        state.withLock { s in s.connections.removeAll { $0 === connection } }
        if let will { route(will) }
    }
}
