/// The seam between a service's logic and the broker: what a service does with its connection. `MQTTClient`
/// (libmosquitto) satisfies it in production; `InMemoryBroker`'s connections (module InMemoryMQTT) satisfy it in
/// unit tests, so a service's behaviour is tested without a broker process.
///
/// The contract both keep: one connection's messages reach their handlers in the order the connection received
/// them, across all its filters, one at a time, never on the caller's thread (see `MQTTDispatcher`).
public protocol MQTTConnection: AnyObject, Sendable {
    /// Connects in the background (and reconnects by itself); returns at once.
    func start() throws(MQTTError)
    var isConnected: Bool { get }
    /// Whether the connection speaks MQTT 5 (so Message Expiry is sent).
    var speaksMQTT5: Bool { get }
    /// Subscribes now and after every reconnect; `handler` must not block.
    func subscribe(_ filter: String, qos: Int32, handler: @escaping MQTTDispatcher.Handler) throws(MQTTError)
    /// One filter as an AsyncSequence (for one-filter tools; a service feeds an `Inbox`); finished at shutdown.
    func subscribe(_ filter: String, qos: Int32, bufferLimit: Int) throws(MQTTError) -> MQTTSubscription
    /// Hands a message over; QoS 1 is queued across reconnects (see `MQTTClient.publish`).
    @discardableResult
    func publish(topic: String, payload: [UInt8], qos: Int32, retain: Bool, expiryS: UInt32?) throws(MQTTError) -> Int32
    /// Publishes and waits for the broker's acknowledgement.
    func publishAndWait(topic: String, payload: [UInt8], qos: Int32, retain: Bool, expiryS: UInt32?,
                        timeout: Duration) async throws
    /// Connection changes from now on.
    func events() -> AsyncStream<MQTTConnectionEvent>
    /// Handlers run on the thread that receives the message, with no queue or task between (see `MQTTDispatcher`'s
    /// `direct`): a message reaches them as soon as it is received.
    var deliversOnNetworkThread: Bool { get }
    /// Messages dropped unread because the consumers fell behind.
    var droppedUnread: Int { get }
    /// Subscriptions the broker refused.
    var refusedSubscriptions: Int { get }
    /// QoS 1 messages still waiting for the broker's acknowledgement.
    var pendingAcknowledgements: Int { get }
    /// Returns once `shutdown()` ran and every message received before it was handed to its handlers.
    func drained() async
    /// Disconnects cleanly (no Last Will); returns whether it stopped in time.
    @discardableResult
    func shutdown(timeout: Duration) -> Bool
}

extension MQTTClient: MQTTConnection {}

// Shorter forms for callers that hold the protocol (a requirement cannot carry default arguments). Each leaves out
// a parameter, so none of them is a default implementation of a requirement.
extension MQTTConnection {
    /// QoS 1.
    public func subscribe(_ filter: String, handler: @escaping MQTTDispatcher.Handler) throws(MQTTError) {
        try subscribe(filter, qos: 1, handler: handler)
    }
    /// Buffers up to 1024 messages.
    public func subscribe(_ filter: String, qos: Int32 = 1) throws(MQTTError) -> MQTTSubscription {
        try subscribe(filter, qos: qos, bufferLimit: 1024)
    }
    /// No Message Expiry.
    @discardableResult
    public func publish(topic: String, payload: [UInt8], qos: Int32, retain: Bool) throws(MQTTError) -> Int32 {
        try publish(topic: topic, payload: payload, qos: qos, retain: retain, expiryS: nil)
    }
    /// No Message Expiry.
    public func publishAndWait(topic: String, payload: [UInt8], qos: Int32 = 1, retain: Bool,
                               timeout: Duration = .seconds(5)) async throws {
        try await publishAndWait(topic: topic, payload: payload, qos: qos, retain: retain, expiryS: nil,
                                 timeout: timeout)
    }
    /// Waits up to 0.5 s.
    @discardableResult
    public func shutdown() -> Bool { shutdown(timeout: .milliseconds(500)) }

    /// Waits until connected (or the timeout passes). Returns whether connected.
    public func waitUntilConnected(timeout: Duration) async -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while clock.now < deadline {
            if isConnected { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return isConnected
    }
}
