import QuadMQTT
import Synchronization

/// One client's connection to an `InMemoryBroker`. Delivery goes through an `MQTTDispatcher`, the same ordered
/// queue the real client uses, so handlers run one at a time, in publish order, never on the publisher's thread.
public final class InMemoryConnection: MQTTConnection {
    private struct State {
        var started = false
        var connected = false
        var filters: [String] = []
        var refused = 0
        var events: [AsyncStream<MQTTConnectionEvent>.Continuation] = []
        var nextMid: Int32 = 1
        var streams: [MQTTSubscription] = []
    }
    public let clientId: String
    private let broker: InMemoryBroker
    private let will: MQTTMessage?
    private let dispatcher: MQTTDispatcher
    private let state = Mutex(State())
    public let speaksMQTT5: Bool

    init(broker: InMemoryBroker, clientId: String, will: MQTTMessage?, speaksMQTT5: Bool, direct: Bool) {
        self.broker = broker
        self.clientId = clientId
        self.will = will
        self.speaksMQTT5 = speaksMQTT5
        dispatcher = MQTTDispatcher(bufferLimit: 4096, matches: MQTTClient.matches, direct: direct)
    }

    public var deliversOnNetworkThread: Bool { dispatcher.isDirect }

    public func start() throws(MQTTError) {
        let continuations = state.withLock { s -> [AsyncStream<MQTTConnectionEvent>.Continuation] in
            guard !s.started else { return [] }
            s.started = true
            s.connected = true
            return s.events
        }
        continuations.forEach { $0.yield(.connected) }
    }

    public var isConnected: Bool { state.withLock { $0.connected } }

    public func subscribe(_ filter: String, qos: Int32, handler: @escaping MQTTDispatcher.Handler) throws(MQTTError) {
        guard try dispatcher.add(filter: filter, handler: handler) else { return }
        state.withLock { $0.filters.append(filter) }
        if !broker.subscribed(self, filter: filter) {
            let continuations = state.withLock { s in
                s.refused += 1
                s.filters.removeAll { $0 == filter }
                return s.events
            }
            continuations.forEach { $0.yield(.subscriptionRefused(filter: filter, code: 0x80)) }
        }
    }

    public func subscribe(_ filter: String, qos: Int32, bufferLimit: Int) throws(MQTTError) -> MQTTSubscription {
        let subscription = MQTTSubscription(filter: filter, qos: qos, bufferLimit: bufferLimit)
        state.withLock { $0.streams.append(subscription) }
        try subscribe(filter, qos: qos) { subscription.deliver($0) }
        return subscription
    }

    @discardableResult
    public func publish(topic: String, payload: [UInt8], qos: Int32, retain: Bool,
                        expiryS: UInt32? = nil) throws(MQTTError) -> Int32 {
        let mid: Int32? = state.withLock { s in
            guard s.connected else { return nil }
            defer { s.nextMid += 1 }
            return s.nextMid
        }
        guard let mid else { throw .notConnected }
        broker.route(MQTTMessage(topic: topic, payload: payload, qos: qos, retain: retain))
        return mid
    }

    public func publishAndWait(topic: String, payload: [UInt8], qos: Int32 = 1, retain: Bool,
                               expiryS: UInt32? = nil, timeout: Duration = .seconds(5)) async throws {
        try publish(topic: topic, payload: payload, qos: qos, retain: retain, expiryS: expiryS)
    }

    public func events() -> AsyncStream<MQTTConnectionEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: MQTTConnectionEvent.self,
                                                            bufferingPolicy: .bufferingNewest(64))
        let connected = state.withLock { s in
            s.events.append(continuation)
            return s.connected
        }
        if connected { continuation.yield(.connected) }
        return stream
    }

    public var droppedUnread: Int { dispatcher.droppedCount }
    public var refusedSubscriptions: Int { state.withLock { $0.refused } }
    /// Delivery is immediate: nothing ever waits for an acknowledgement.
    public var pendingAcknowledgements: Int { 0 }

    /// Returns once the connection is shut down and every message it received was handed to its handlers.
    public func drained() async { await dispatcher.drained() }

    /// A clean disconnect: no Last Will.
    @discardableResult
    public func shutdown(timeout: Duration = .milliseconds(500)) -> Bool {
        end(will: nil, event: .disconnected(code: 0, description: "client disconnected"))
        return true
    }

    /// The connection drops without a DISCONNECT (the process died): the broker publishes the Last Will.
    public func kill() {
        end(will: will, event: .disconnected(code: 7, description: "connection lost"))
    }

    private func end(will: MQTTMessage?, event: MQTTConnectionEvent) {
        let ended = state.withLock { s -> ([AsyncStream<MQTTConnectionEvent>.Continuation], [MQTTSubscription])? in
            guard s.connected else { return nil }
            s.connected = false
            return (s.events, s.streams)
        }
        guard let (continuations, streams) = ended else { return }
        broker.disconnected(self, will: will)
        dispatcher.finish()
        Task { [dispatcher] in
            // Like the real client: a subscription's sequence ends after what was queued before the shutdown.
            await dispatcher.drained()
            streams.forEach { $0.finish() }
        }
        continuations.forEach { $0.yield(event); $0.finish() }
    }

    /// Queues `message` when one of this connection's filters (or exactly `only`) matches it.
    func deliver(_ message: MQTTMessage, only filter: String? = nil) {
        let wanted = state.withLock { s in
            guard s.connected || filter != nil else { return false }
            if let filter { return s.filters.contains(filter) }
            return s.filters.contains { MQTTClient.matches(filter: $0, topic: message.topic) }
        }
        if wanted { dispatcher.receive(message) }
    }
}
