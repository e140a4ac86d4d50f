import Clocks

// Subscriptions: made now (if connected) and on every CONNACK; every SUBACK checked, and a refused filter asked for
// again by the supervisor after 2 s, 4 s, … at most every 30 s.
extension MQTTClient {
    static let subscribeRetryMaxS = 30.0

    /// Subscribes now (if connected) and after every reconnect. `handler` gets every message matching `filter`
    /// in the order this connection received them (across all its filters), on the client's one dispatcher
    /// task (the network thread with `deliversOnNetworkThread`); it must not block. Different filters that overlap are
    /// refused (see `MQTTDispatcher`).
    public func subscribe(_ filter: String, qos: Int32 = 1,
                          handler: @escaping MQTTDispatcher.Handler) throws(MQTTError) {
        guard try dispatcher.add(filter: filter, handler: handler) else { return }
        state.withLock { s in
            s.filters.append((filter, qos))
            // NO_CONN here is fine: the next CONNACK subscribes again.
            if s.connected { sendSubscribe(filter, qos: qos, state: &s) }
        }
    }

    /// The same as an AsyncSequence, for one-filter tools and tests (a service feeds an `Inbox` instead:
    /// separate sequences drained by separate tasks lose the order across filters). `bufferLimit` bounds the
    /// messages held for a slow consumer (the oldest are dropped and counted).
    public func subscribe(_ filter: String, qos: Int32 = 1,
        bufferLimit: Int = 1024) throws(MQTTError) -> MQTTSubscription {
        let subscription = MQTTSubscription(filter: filter, qos: qos, bufferLimit: bufferLimit)
        state.withLock { $0.streams.append(subscription) }
        try subscribe(filter, qos: qos) { subscription.deliver($0) }
        return subscription
    }

    /// Subscriptions the broker refused (SUBACK 0x80 or an MQTT 5 reason ≥ 0x80) since the start; each is also
    /// logged as an error and reported as `.subscriptionRefused` on `events()`.
    public var refusedSubscriptions: Int { state.withLock { $0.refusedSubscriptions } }

    /// Connected, and the broker has answered every SUBSCRIBE sent (granted or refused): from now on what is
    /// published on a granted filter reaches this client. (Tests once guessed 200 ms for the SUBACKs; on a busy
    /// machine the first messages went by before the subscription held.)
    public var subscriptionsAnswered: Bool { state.withLock { $0.connected && $0.pendingSubscribes.isEmpty } }

    /// Messages dropped from the connection's one delivery queue because its consumers fell behind.
    public var droppedUnread: Int { dispatcher.droppedCount }

    /// Returns once `shutdown()` ran and every message received before it was handed to its handlers.
    public func drained() async { await dispatcher.drained() }

    /// Called with the state lock held, so the SUBACK callback cannot look the mid up before it is recorded.
    func sendSubscribe(_ filter: String, qos: Int32, state s: inout MQTTClientState) {
        if let mid = librarySubscribe(filter, qos: qos) { s.pendingSubscribes[mid] = filter }
    }

    /// On the network thread. A broker that cannot serve a filter says so only in the SUBACK (RabbitMQ answers 0x80
    /// to `$share/…`, an ACL denial looks the same): without this check the subscriber just never receives anything.
    func handleSubscribed(mid: Int32, codes: [Int32]) {
        let filter = state.withLock { $0.pendingSubscribes.removeValue(forKey: mid) }
        guard let filter else { return }
        guard let code = codes.first(where: { $0 >= 0x80 }) else {
            state.withLock { _ = $0.subscribeRetryDelayS.removeValue(forKey: filter) }
            return
        }
        let text = code == 0x80 || !speaksMQTT5 ? "failure" : Self.reasonText(code)
        // A refusal may pass: a NATS node that just lost a cluster peer refuses subscriptions while JetStream
        // recovers. Ask again, 2 s, 4 s, … at most every 30 s, while connected (until then nothing is received).
        let nowS = MonotonicClock.now().seconds
        let retryS = state.withLock { s -> Double in
            s.refusedSubscriptions += 1
            let delayS = min(Self.subscribeRetryMaxS, (s.subscribeRetryDelayS[filter] ?? 1) * 2)
            s.subscribeRetryDelayS[filter] = delayS
            s.resubscribeAtS[filter] = nowS + delayS
            return delayS
        }
        logger.error("""
            broker \(currentBroker) refused the subscription to \(filter): \(text) (0x\(String(code, radix: 16))); \
            nothing on it is received; asking again in \(Int(retryS)) s
            """)
        emit(.subscriptionRefused(filter: filter, code: code))
    }

    /// On the supervisor's thread: asks again for each refused filter whose delay is over, if still connected.
    func resubscribeDue() {
        let nowS = MonotonicClock.now().seconds
        state.withLock { s in
            guard !s.resubscribeAtS.isEmpty else { return }
            let due = s.resubscribeAtS.filter { $0.value <= nowS }.map(\.key)
            for filter in due {
                s.resubscribeAtS[filter] = nil
                guard s.phase == .running, s.connected, s.pendingSubscribes.values.contains(filter) == false,
                      let qos = s.filters.first(where: { $0.0 == filter })?.1 else { continue }
                sendSubscribe(filter, qos: qos, state: &s)
            }
        }
    }
}
