import Clocks

// The connection as libmosquitto reports it: CONNACK (subscriptions re-made), refusals (and `.auto`'s fall back to
// 3.1.1), disconnects; the events others hear about it and the trouble lines the log gets.
extension MQTTClient {
    /// Connection changes from now on.
    public func events() -> AsyncStream<MQTTConnectionEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: MQTTConnectionEvent.self,
            bufferingPolicy: .bufferingNewest(64))
        state.withLock { $0.eventContinuations.append(continuation) }
        return stream
    }

    public var isConnected: Bool { state.withLock { $0.connected } }

    /// Handlers run on the network thread (`MQTTConfiguration.deliversOnNetworkThread`).
    public var deliversOnNetworkThread: Bool { dispatcher.isDirect }

    /// `host:port` of the broker in use (or being tried).
    public var currentBroker: String { currentEndpoint.description }

    var currentEndpoint: MQTTConfiguration.Endpoint {
        let brokers = configuration.brokers
        return brokers[state.withLock { $0.brokerIndex } % brokers.count]
    }

    /// `refused by broker HOST:PORT: <reason>` when the last attempt was answered with a refusal (and nothing
    /// connected since): a tool that gives up then says the broker refused it, not that it could not reach one.
    public var lastRefusal: String? { state.withLock { $0.lastRefusal } }

    /// Whether the connection speaks MQTT 5 (so Message Expiry is sent); false after an `.auto` fallback.
    public var speaksMQTT5: Bool { state.withLock { $0.speaksV5 } }

    /// On the network thread.
    func handleConnect(code: Int32) {
        state.withLock { $0.answeredThisAttempt = true }
        guard code == 0 else {
            refused(code: code, text: Self.connackText(code, v5: speaksMQTT5))
            return
        }
        // Connected and subscribing in one step: `subscriptionsAnswered` never sees a connection whose SUBSCRIBEs
        // are not sent yet.
        let hadTrouble = state.withLock { s in
            s.connected = true
            s.lastRefusal = nil
            s.attemptFailed = false
            s.retrySameBroker = false
            s.fatalDisconnect = false
            s.lastProgressS = MonotonicClock.now().seconds
            s.pendingSubscribes = [:]  // a lost connection's SUBSCRIBEs are never answered
            for (filter, qos) in s.filters { sendSubscribe(filter, qos: qos, state: &s) }
            defer { s.trouble = ConnectionTrouble() }
            return s.trouble.reported
        }
        announce(now: MonotonicClock.now())
        onConnect?(self)
        emit(.connected)
        if hadTrouble { logger.notice("broker reachable again") }
    }

    /// The broker refused this attempt (its CONNACK, or its silence on an MQTT 5 CONNECT): `.auto` asks it again in
    /// 3.1.1; otherwise the refusal is logged, kept for `lastRefusal` and reported on the event stream.
    private func refused(code: Int32, text: String) {
        if fallBackToV311(after: code) {
            state.withLock { s in
                s.attemptFailed = true
                s.retrySameBroker = true
            }
            logger.notice("""
                broker \(currentBroker) does not speak MQTT 5 (\(text)): using 3.1.1, without Message Expiry
                """)
            return
        }
        let refusal = "refused by broker \(currentBroker): \(text)"
        state.withLock { s in
            s.attemptFailed = true
            s.lastRefusal = refusal
        }
        reportTrouble(refusal, refusal: true)
        emit(.refused(code: code, description: text))
    }

    /// `.auto` only: a broker that refused the MQTT 5 CONNECT for its version is asked again in 3.1.1 (the
    /// supervisor restarts the loop, which reads the option set here).
    private func fallBackToV311(after code: Int32) -> Bool {
        guard configuration.protocolVersion == .auto,
              code == 1 || code == Self.unsupportedProtocolVersion else { return false }
        let switched = state.withLock { s -> Bool in
            guard s.speaksV5 else { return false }
            s.speaksV5 = false
            return true
        }
        guard switched else { return false }
        libraryUseV311()
        return true
    }

    /// On the network thread.
    func handleDisconnect(code: Int32) {
        let (wasConnected, closedOnV5Connect) = state.withLock { s in
            defer {
                s.connected = false
                s.answeredThisAttempt = false
                s.lastProgressS = MonotonicClock.now().seconds
                if Self.isFatalDisconnect(code) { s.fatalDisconnect = true }
                if code != 0 { s.attemptFailed = true }
            }
            // libmosquitto calls this only once the TCP connection stood (a failed connect is silent): the broker
            // read our MQTT 5 CONNECT and hung up without a CONNACK.
            let closed = !s.connected && !s.answeredThisAttempt && s.speaksV5 && code == Self.connectionLost
            return (s.connected, closed)
        }
        // RabbitMQ 3.10 answers an MQTT 5 CONNECT by closing the connection: without this the client retried in
        // silence (the TCP probe finds the port open), and `auto` never fell back to 3.1.1.
        if closedOnV5Connect {
            refused(code: Self.unsupportedProtocolVersion, text: """
                it closed the connection on the MQTT 5 CONNECT without a CONNACK, as a broker without MQTT 5 \
                (RabbitMQ 3.10) does: Unsupported Protocol Version? (--mqtt-version 3.1.1 or auto)
                """)
        }
        let text = Self.disconnectText(code)
        // Losing a connection is news; a failed attempt while the trouble is being reported is not.
        if code != 0 {
            if wasConnected { logger.warning("disconnected: \(text)") } else { logger.debug("attempt ended: \(text)") }
        }
        emit(.disconnected(code: code, description: text))
    }

    /// Logs a connection problem at once the first time, then at most every 10 s while it lasts.
    func reportTrouble(_ text: String, refusal: Bool = false) {
        let nowS = MonotonicClock.now().seconds
        let line: String? = state.withLock { s in
            if refusal { s.trouble.refusedByBroker = true }
            return s.trouble.report(text, nowS: nowS)
        }
        if let line { logger.warning("\(line)") }
    }

    func emit(_ event: MQTTConnectionEvent) {
        let continuations = state.withLock { $0.eventContinuations }
        continuations.forEach { $0.yield(event) }
        switch event {
        case .connected:
            let count = configuration.brokers.count
            let which = count > 1 ? " (broker \(state.withLock { $0.brokerIndex } + 1) of \(count))" : ""
            logger.info("connected to \(currentBroker)\(which)")
        default: break
        }
    }
}
