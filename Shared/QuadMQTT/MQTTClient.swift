import CMosquitto
import Dispatch
#if canImport(Glibc)
import Glibc
#endif
import Clocks
import Logging
import Synchronization

// The only file that imports libmosquitto. Rules it follows, from how libmosquitto behaves (its threaded loop):
// - callbacks run on libmosquitto's loop thread while it holds its callback mutex: they copy what they need,
//   hand it on without blocking, and never call a *_callback_set;
// - subscriptions are re-made on every CONNACK (the library never restores them);
// - QoS 1 publishes made while offline are queued by the library and resent after reconnect: NO_CONN from
//   them means "queued", not "failed" (retrying would duplicate), and we bound how many may wait;
// - TCP_NODELAY is on (Nagle + delayed ACK otherwise add ~40 ms);
// - every message goes through ONE ordered queue (`MQTTDispatcher`), so handlers see libmosquitto's order
//   (or, `deliversOnNetworkThread`, straight to the handlers on the network thread, in that same order);
// - a connect_async that fails (broker not up yet) is never retried by libmosquitto: its thread waits for a
//   state change only a connect call makes. The supervisor restarts the loop every `connectRetryS` until one works;
// - loop_start/loop_stop run on one serial queue; shutdown is disconnect → loop_stop(force: false) → destroy,
//   bounded in time (a thread stuck in a blocking reconnect is left to the process exit), never pthread_cancel.

private let libraryInitialised: Bool = {
    mosquitto_lib_init()
    return true
}()

/// Codes after which libmosquitto's loop thread ends for good instead of reconnecting.
private let fatalDisconnectCodes: Set<Int32> = [
    MOSQ_ERR_NOMEM.rawValue, MOSQ_ERR_PROTOCOL.rawValue, MOSQ_ERR_INVAL.rawValue, MOSQ_ERR_NOT_FOUND.rawValue,
    MOSQ_ERR_TLS.rawValue, MOSQ_ERR_PAYLOAD_SIZE.rawValue, MOSQ_ERR_NOT_SUPPORTED.rawValue, MOSQ_ERR_AUTH.rawValue,
    MOSQ_ERR_ACL_DENIED.rawValue, MOSQ_ERR_UNKNOWN.rawValue, MOSQ_ERR_EAI.rawValue, MOSQ_ERR_PROXY.rawValue,
]

/// An MQTT connection on libmosquitto's threaded loop, with an async API.
public final class MQTTClient: Sendable {
    private enum Phase { case idle, running, stopping }

    private struct State {
        /// Each distinct filter once, re-made on every CONNACK.
        var filters: [(filter: String, qos: Int32)] = []
        var streams: [MQTTSubscription] = []
        var connected = false
        var phase = Phase.idle
        /// libmosquitto's network thread is started (only the lifecycle queue changes it).
        var loopRunning = false
        /// `shutdown` stopped waiting for the network thread: the handle must never be destroyed.
        var abandoned = false
        var trouble = ConnectionTrouble()
        var lastRestartLogS = -Double.infinity
        /// While `startLoop` runs (connect_async before loop_start, so the library is not yet threaded).
        var startingLoop = false
        /// QoS 1 mids awaiting PUBACK, with the waiter if someone awaits it.
        var pendingQoS1: [Int32: CheckedContinuation<Void, any Error>?] = [:]
        /// Monotonic seconds of the last CONNACK or of the last (re)start of the loop.
        var lastProgressS: Double = 0
        var fatalDisconnect = false
        /// The version of the current (or next) CONNECT: `.auto` starts at 5 and may fall back to 3.1.1.
        var speaksV5 = false
        var eventContinuations: [AsyncStream<MQTTConnectionEvent>.Continuation] = []
        /// SUBSCRIBE mids awaiting their SUBACK, with the filter asked for (one filter per SUBSCRIBE).
        var pendingSubscribes: [Int32: String] = [:]
        var refusedSubscriptions = 0
        /// A CONNACK (of any code) arrived since the connection attempt began.
        var answeredThisAttempt = false
        /// Filter → the delay before asking again after its last refusal (doubles up to `subscribeRetryMaxS`).
        var subscribeRetryDelayS: [String: Double] = [:]
        /// The broker's last CONNACK refusal since the last successful connect (cleared by a CONNACK 0).
        var lastRefusal: String?
        /// Index into `configuration.brokers` of the broker in use or being tried.
        var brokerIndex = 0
        /// An attempt on the current broker failed (refused, lost, unreachable) since the loop last (re)started.
        var attemptFailed = false
        /// The failure was the MQTT 5 refusal of `.auto`: ask the same broker again, in 3.1.1.
        var retrySameBroker = false
        /// The loop's connect_async failed (refused, DNS): libmosquitto's thread then sleeps until some call
        /// leaves the `new` state, and it makes none itself, so only our restart can connect.
        var connectNotIssued = false
    }

    public let configuration: MQTTConfiguration
    private let logger: Logger
    // libmosquitto's calls are thread-safe apart from mosquitto_lib_init (its header says so).
    nonisolated(unsafe) private let handle: OpaquePointer
    private let state = Mutex(State())
    private let onConnect: (@Sendable (MQTTClient) -> Void)?
    /// Every loop_start / loop_stop / connect_async runs here, one at a time: libmosquitto must never see two
    /// threads in loop_stop, nor a restart racing a shutdown.
    private let lifecycle = DispatchQueue(label: "mqtt.lifecycle")
    /// The reachability probe (DNS and a TCP connect may block): never on the lifecycle queue.
    private let diagnostics = DispatchQueue(label: "mqtt.diagnostics")
    private let supervisorTask = Mutex<Task<Void, Never>?>(nil)
    private let superviseQueued = Atomic<Bool>(false)
    /// QoS 1 publishes begun or awaiting their PUBACK (entries of `pendingQoS1`, plus one being made). libmosquitto
    /// calls `on_publish` on the network thread for every QoS 0 publish too, while the publishing thread may still
    /// hold `state` across the library call: at zero the callback has nothing to look up and skips the lock (a
    /// flight's 47 commands a second otherwise contend for it, each a futex wait and a context switch).
    private let qos1InFlight = Atomic<Int>(0)
    private let dispatcher: MQTTDispatcher

    /// - Parameter onConnect: runs on the network thread after every CONNACK, after the subscriptions were
    ///   re-made; may publish (publishing only queues), must not block.
    public init(configuration: MQTTConfiguration, logger: Logger,
                onConnect: (@Sendable (MQTTClient) -> Void)? = nil) throws(MQTTError) {
        _ = libraryInitialised
        self.configuration = configuration
        self.logger = logger
        self.onConnect = onConnect
        dispatcher = MQTTDispatcher(bufferLimit: configuration.deliveryBufferLimit, matches: Self.matches,
                                    direct: configuration.deliversOnNetworkThread)
        guard let mosq = mosquitto_new(configuration.clientId, true, nil) else {
            throw .library(operation: "mosquitto_new", code: MOSQ_ERR_NOMEM.rawValue, description: "out of memory")
        }
        handle = mosq
        mosquitto_user_data_set(mosq, Unmanaged.passUnretained(self).toOpaque())
        try configure()
    }

    deinit {
        // Normally `shutdown()` ran already; this only guards against a leaked running loop. An abandoned network
        // thread may still use the handle: leak it rather than free it under the thread.
        dispatcher.finish()
        let (running, abandoned) = state.withLock { ($0.loopRunning, $0.abandoned) }
        guard !abandoned else { return }
        if running {
            mosquitto_disconnect(handle)
            mosquitto_loop_stop(handle, false)
        }
        mosquitto_destroy(handle)
    }

    private func configure() throws(MQTTError) {
        let c = configuration
        let v5 = c.protocolVersion != .v311
        state.withLock { $0.speaksV5 = v5 }
        try check("protocol version",
                  mosquitto_int_option(handle, MOSQ_OPT_PROTOCOL_VERSION,
                      Int32(v5 ? MQTT_PROTOCOL_V5 : MQTT_PROTOCOL_V311)))
        try check("TCP_NODELAY", mosquitto_int_option(handle, MOSQ_OPT_TCP_NODELAY, 1))
        // With several brokers the supervisor does every reconnect (to the next broker, by restarting the loop):
        // libmosquitto's own would retry the dead node, in a blocking connect that a silent host holds for minutes.
        let ownReconnectS: UInt32 = c.alternateBrokers.isEmpty ? c.reconnectDelayS : 3600
        try check("reconnect delay", mosquitto_reconnect_delay_set(handle, ownReconnectS,
                                                                   max(ownReconnectS, c.reconnectDelayMaxS), false))
        if let user = c.username {
            try check("username", mosquitto_username_pw_set(handle, user, c.password))
        }
        if let tls = c.tls {
            try check("TLS", mosquitto_tls_set(handle, tls.caFile, nil, tls.certFile, tls.keyFile, nil))
            try check("TLS options", mosquitto_tls_opts_set(handle, 1, "tlsv1.2", nil))
        }
        if let will = c.will {
            try check("will", will.payload.withUnsafeBytes {
                mosquitto_will_set(handle, will.topic, Int32($0.count), $0.baseAddress, will.qos, will.retain)
            })
        }
        mosquitto_connect_callback_set(handle) { _, obj, rc in
            MQTTClient.from(obj)?.handleConnect(code: rc)
        }
        mosquitto_disconnect_callback_set(handle) { _, obj, rc in
            MQTTClient.from(obj)?.handleDisconnect(code: rc)
        }
        mosquitto_publish_callback_set(handle) { _, obj, mid in
            MQTTClient.from(obj)?.handlePublished(mid: mid)
        }
        mosquitto_subscribe_callback_set(handle) { _, obj, mid, count, granted in
            guard let client = MQTTClient.from(obj) else { return }
            let codes = granted.map { Array(UnsafeBufferPointer(start: $0, count: Int(max(0, count)))) } ?? []
            client.handleSubscribed(mid: mid, codes: codes)
        }
        mosquitto_message_callback_set(handle) { _, obj, message in
            guard let client = MQTTClient.from(obj), let message else { return }
            client.handleMessage(message.pointee)
        }
    }

    private static func from(_ obj: UnsafeMutableRawPointer?) -> MQTTClient? {
        guard let obj else { return nil }
        return Unmanaged<MQTTClient>.fromOpaque(obj).takeUnretainedValue()
    }

    // MARK: - Public API

    /// Connection changes from now on.
    public var deliversOnNetworkThread: Bool { dispatcher.isDirect }

    public func events() -> AsyncStream<MQTTConnectionEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: MQTTConnectionEvent.self,
            bufferingPolicy: .bufferingNewest(64))
        state.withLock { $0.eventContinuations.append(continuation) }
        return stream
    }

    public var isConnected: Bool { state.withLock { $0.connected } }

    /// `host:port` of the broker in use (or being tried).
    public var currentBroker: String { currentEndpoint.description }

    private var currentEndpoint: MQTTConfiguration.Endpoint {
        let brokers = configuration.brokers
        return brokers[state.withLock { $0.brokerIndex } % brokers.count]
    }

    /// Starts the network thread and connects in the background; reconnects by itself from then on.
    /// Returns at once: a broker that is not up yet is not an error (it is logged within about a second).
    public func start() throws(MQTTError) {
        let first = state.withLock { s -> Bool in
            guard s.phase == .idle else { return false }
            s.phase = .running
            s.lastProgressS = MonotonicClock.now().seconds
            return true
        }
        guard first else { return }
        let started: Result<Void, MQTTError> = lifecycle.sync {
            do throws(MQTTError) { try startLoop() } catch { return .failure(error) }
            return .success(())
        }
        try started.get()
        startSupervisor()
    }

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

    /// Subscriptions the broker refused (SUBACK 0x80 or an MQTT 5 reason ≥ 0x80) since the start; each is also
    /// logged as an error and reported as `.subscriptionRefused` on `events()`.
    public var refusedSubscriptions: Int { state.withLock { $0.refusedSubscriptions } }

    /// Connected, and the broker has answered every SUBSCRIBE sent (granted or refused): from now on what is
    /// published on a granted filter reaches this client. (Tests once guessed 200 ms for the SUBACKs; on a busy
    /// machine the first messages went by before the subscription held.)
    public var subscriptionsAnswered: Bool { state.withLock { $0.connected && $0.pendingSubscribes.isEmpty } }

    /// `refused by broker HOST:PORT: <reason>` when the last attempt was answered with a refusal (and nothing
    /// connected since): a tool that gives up then says the broker refused it, not that it could not reach one.
    public var lastRefusal: String? { state.withLock { $0.lastRefusal } }

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

    /// Messages dropped from the connection's one delivery queue because its consumers fell behind.
    public var droppedUnread: Int { dispatcher.droppedCount }

    /// Returns once `shutdown()` ran and every message received before it was handed to its handlers.
    public func drained() async { await dispatcher.drained() }

    /// Hands a message to the library. QoS 0: sent if connected, otherwise `.notConnected`. QoS 1: queued and
    /// resent after a reconnect until acknowledged; refused with `.offlineQueueFull` past the bound, and with
    /// `.notConnected` while the network loop is being (re)started.
    /// `expiryS`: MQTT 5 Message Expiry Interval — a broker (and a bridge queue on it) drops the message once it
    /// has waited that long. Ignored on a 3.1.1 connection (see `speaksMQTT5`).
    @discardableResult
    public func publish(topic: String, payload: [UInt8], qos: Int32, retain: Bool,
                        expiryS: UInt32? = nil) throws(MQTTError) -> Int32 {
        try publish(topic: topic, payload: payload, qos: qos, retain: retain, expiryS: expiryS, waiter: nil)
    }

    /// Whether the connection speaks MQTT 5 (so Message Expiry is sent); false after an `.auto` fallback.
    public var speaksMQTT5: Bool { state.withLock { $0.speaksV5 } }

    /// Publishes and waits for the broker's acknowledgement (PUBACK for QoS 1; for QoS 0, the hand-over to the
    /// socket).
    public func publishAndWait(topic: String, payload: [UInt8], qos: Int32 = 1, retain: Bool,
                               expiryS: UInt32? = nil, timeout: Duration = .seconds(5)) async throws {
        guard qos > 0 else {
            try publish(topic: topic, payload: payload, qos: qos, retain: retain, expiryS: expiryS)
            return
        }
        let publishedMid = MidBox()
        let timeout = Task { [weak self] in
            try await Task.sleep(for: timeout)
            if let mid = publishedMid.value.withLock({ $0 }) {
                self?.failWaiter(mid: mid, with: .acknowledgementTimeout(after: timeout))
            }
        }
        defer { timeout.cancel() }
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            do {
                let mid = try publish(topic: topic, payload: payload, qos: qos, retain: retain, expiryS: expiryS,
                                      waiter: continuation)
                publishedMid.value.withLock { $0 = mid }
            } catch {
                continuation.resume(throwing: error)
            }
        }
    }

    /// QoS 1 messages still waiting for the broker's acknowledgement.
    public var pendingAcknowledgements: Int { state.withLock { $0.pendingQoS1.count } }

    /// Disconnects cleanly (the broker does not publish the will), stops the network thread and finishes every
    /// subscription. Waits at most `timeout` for libmosquitto: its thread can sit in a blocking connect()
    /// (a reconnect to a silent host) for minutes, and loop_stop would wait for it; then the thread is left to
    /// end with the process and `false` is returned. Safe to call twice, from any thread.
    @discardableResult
    public func shutdown(timeout: Duration = .milliseconds(500)) -> Bool {
        let first = state.withLock { s -> Bool in
            defer { s.phase = .stopping }
            return s.phase != .stopping
        }
        supervisorTask.withLock { $0?.cancel(); $0 = nil }
        var stopped = true
        if first {
            let done = DispatchSemaphore(value: 0)
            lifecycle.async { [self] in
                stopLoop()
                done.signal()
            }
            let deadline = MonotonicClock.now().advanced(by: timeout)
            while done.wait(timeout: .now() + .milliseconds(50)) == .timedOut {
                if MonotonicClock.now() >= deadline {
                    stopped = false
                    break
                }
                // A reconnect in progress resets libmosquitto's state to "new", forgetting an earlier
                // disconnect: repeat it until the thread notices.
                mosquitto_disconnect(handle)
            }
            if !stopped {
                state.withLock { $0.abandoned = true }
                logger.warning("""
                    libmosquitto's network thread did not stop within \(timeout) (blocked in a reconnect?); \
                    leaving it to end with the process
                    """)
            }
        }
        dispatcher.finish()
        let (streams, waiters, events) = state.withLock { s in
            defer {
                qos1InFlight.subtract(s.pendingQoS1.count, ordering: .sequentiallyConsistent)
                s.streams = []; s.pendingQoS1 = [:]; s.eventContinuations = []
            }
            return (s.streams, s.pendingQoS1.values.compactMap { $0 }, s.eventContinuations)
        }
        streams.forEach { $0.finish() }
        waiters.forEach { $0.resume(throwing: MQTTError.shutDown) }
        events.forEach { $0.finish() }
        return stopped
    }

    // MARK: - Internals

    private func publish(topic: String, payload: [UInt8], qos: Int32, retain: Bool, expiryS: UInt32?,
                         waiter: CheckedContinuation<Void, any Error>?) throws(MQTTError) -> Int32 {
        // The lock spans the library call so the PUBACK callback cannot see the mid before it is recorded.
        let result: Result<Int32, MQTTError> = state.withLock { s in
            if s.phase == .stopping { return .failure(.shutDown) }
            // libmosquitto queues a PUBLISH made after its socket exists but before CONNECT is queued ahead of
            // CONNECT (the broker then drops the connection for a protocol error), and while connect_async runs
            // unthreaded it even writes from this thread. So: nothing during a (re)start, QoS 0 only after CONNACK.
            // (A CONNACK can beat the end of `startLoop` on a loaded machine: `onConnect` must still publish.)
            if (s.startingLoop || qos == 0) && !s.connected { return .failure(.notConnected) }
            if qos > 0, s.pendingQoS1.count >= configuration.maxPendingQoS1 {
                return .failure(.offlineQueueFull(pending: s.pendingQoS1.count))
            }
            var mid: Int32 = 0
            var properties: OpaquePointer?
            defer { mosquitto_property_free_all(&properties) }
            // Counted before the library call, so its PUBACK callback takes the lock and waits for the mid below.
            if qos > 0 { qos1InFlight.add(1, ordering: .sequentiallyConsistent) }
            if let expiryS, s.speaksV5 {
                _ = mosquitto_property_add_int32(&properties, Int32(MQTT_PROP_MESSAGE_EXPIRY_INTERVAL.rawValue),
                    expiryS)
            }
            let rc = payload.withUnsafeBytes {
                mosquitto_publish_v5(handle, &mid, topic, Int32($0.count), $0.baseAddress, qos, retain, properties)
            }
            if rc == MOSQ_ERR_NO_CONN.rawValue {
                if qos == 0 { return .failure(.notConnected) }
                // QoS 1 while offline: the library keeps it and resends after the reconnect.
            } else if rc != MOSQ_ERR_SUCCESS.rawValue {
                if qos > 0 { qos1InFlight.subtract(1, ordering: .sequentiallyConsistent) }
                return .failure(.library(operation: "publish to \(topic)", code: rc, description: errorText(rc)))
            }
            if qos > 0 { s.pendingQoS1[mid] = .some(waiter) }
            return .success(mid)
        }
        return try result.get()
    }

    /// Stops waiting for one acknowledgement; the message itself stays queued in the library.
    private func failWaiter(mid: Int32, with error: MQTTError) {
        let waiter = state.withLock { s -> CheckedContinuation<Void, any Error>? in
            guard let entry = s.pendingQoS1[mid], let waiter = entry else { return nil }
            s.pendingQoS1[mid] = .some(nil)
            return waiter
        }
        waiter?.resume(throwing: error)
    }

    /// On the lifecycle queue only.
    private func startLoop() throws(MQTTError) {
        let c = configuration
        let endpoint = currentEndpoint
        state.withLock { s in
            s.attemptFailed = false
            s.connectNotIssued = false
        }
        // Publishes are refused meanwhile (see `publish`); the flag is not held as a lock, so a publisher on a
        // real-time thread never waits for connect_async (DNS may take seconds).
        state.withLock { $0.startingLoop = true }
        defer { state.withLock { $0.startingLoop = false } }
        errno = 0
        let rc = mosquitto_connect_async(handle, endpoint.host, endpoint.port, c.keepAliveS)
        // A refused or unreachable broker is not fatal here: the loop keeps trying. Say why at once.
        if rc != MOSQ_ERR_SUCCESS.rawValue {
            let reason = rc == MOSQ_ERR_ERRNO.rawValue ? String(cString: strerror(errno)) : errorText(rc)
            state.withLock { s in
                s.attemptFailed = true
                s.connectNotIssued = true
            }
            reportTrouble("cannot reach broker \(endpoint): \(reason)")
        }
        try check("loop_start", mosquitto_loop_start(handle))
        state.withLock { $0.loopRunning = true }
    }

    /// On the lifecycle queue only: disconnect first, so the thread leaves its loop, then join it.
    private func stopLoop() {
        guard state.withLock({ $0.loopRunning }) else { return }
        mosquitto_disconnect(handle)
        mosquitto_loop_stop(handle, false)
        state.withLock { $0.loopRunning = false }
    }

    /// libmosquitto stops retrying after some errors without telling anyone, and its reconnects fail silently:
    /// every 250 ms check both, off the network thread.
    private func startSupervisor() {
        let task = Task.detached { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(250))
                guard let self else { return }
                // One pending check at most, even while a loop_stop blocks the queue.
                guard !superviseQueued.exchange(true, ordering: .acquiringAndReleasing) else { continue }
                lifecycle.async { [weak self] in
                    self?.superviseQueued.store(false, ordering: .releasing)
                    self?.superviseOnce()
                }
            }
        }
        supervisorTask.withLock { $0 = task }
    }

    private func superviseOnce() {
        let nowS = MonotonicClock.now().seconds
        let brokers = configuration.brokers
        let delayS = Double(configuration.reconnectDelayS)
        // `routine`: a restart that is the retry itself (logged at debug; the trouble line already said why).
        var routine = false
        let (restartReason, probe): (String?, Bool) = state.withLock { s in
            guard s.phase == .running, !s.connected else { return (nil, false) }
            let probe = nowS - s.lastProgressS >= 0.5 && s.trouble.probeDue(nowS: nowS)
            if probe { s.trouble.probing = true }
            // Several brokers: after a failure (or a silent attempt) move on to the next, at the reconnect pace.
            let quietS = nowS - s.lastProgressS
            if brokers.count > 1, quietS >= delayS, s.attemptFailed || s.fatalDisconnect || quietS >= delayS + 2 {
                let from = brokers[s.brokerIndex % brokers.count]
                if s.retrySameBroker {
                    s.retrySameBroker = false
                    return ("asking \(from) again in MQTT 3.1.1", probe)
                }
                s.brokerIndex = (s.brokerIndex + 1) % brokers.count
                let to = brokers[s.brokerIndex]
                return ("no connection to \(from): trying \(to) (\(s.brokerIndex + 1) of \(brokers.count))", probe)
            }
            // Our connect failed (a broker not up yet): libmosquitto never retries that one, and the 15 s restart
            // below came too late (issue 24: services booted before mosquitto). A try costs one connect().
            if brokers.count == 1, s.connectNotIssued, quietS >= configuration.connectRetryS {
                routine = true
                return ("connecting again", probe)
            }
            // After a fatal error, restart at libmosquitto's own reconnect pace (not at every check).
            if s.fatalDisconnect, nowS - s.lastProgressS >= Double(configuration.reconnectDelayS) {
                return ("libmosquitto stopped after a fatal error", probe)
            }
            if nowS - s.lastProgressS > configuration.supervisorRestartAfterS {
                return ("no connection for \(Int(configuration.supervisorRestartAfterS)) s", probe)
            }
            return (nil, probe)
        }
        if probe { probeBroker() }
        guard let restartReason else { return }
        let loud = !routine && state.withLock { s in
            defer { if nowS - s.lastRestartLogS >= ConnectionTrouble.repeatAfterS { s.lastRestartLogS = nowS } }
            return nowS - s.lastRestartLogS >= ConnectionTrouble.repeatAfterS
        }
        if loud { logger.notice("restarting the MQTT network loop: \(restartReason)") } else {
            logger.debug("restarting the MQTT network loop: \(restartReason)")
        }
        stopLoop()
        let stillWanted = state.withLock { s -> Bool in
            s.fatalDisconnect = false
            s.lastProgressS = MonotonicClock.now().seconds
            return s.phase == .running
        }
        // A shutdown that came meanwhile waits behind us on this queue and stops what we start.
        guard stillWanted else { return }
        do {
            try startLoop()
            emit(.loopRestarted(reason: restartReason))
        } catch {
            logger.error("could not restart the MQTT loop: \(error)")
        }
    }

    /// libmosquitto's own reconnects do not say why they fail: try a TCP connect ourselves and log the reason.
    private func probeBroker() {
        let endpoint = currentEndpoint
        let (host, port) = (endpoint.host, endpoint.port)
        let index = state.withLock { $0.brokerIndex } % configuration.brokers.count
        diagnostics.async { [weak self] in
            let failure = BrokerProbe.failure(host: host, port: port, timeoutMs: 500)
            guard let self else { return }
            let refused = state.withLock { s -> Bool in
                s.trouble.probing = false
                // libmosquitto reports no failed background connect: the probe's finding moves a cluster on.
                if failure != nil, s.brokerIndex % self.configuration.brokers.count == index { s.attemptFailed = true }
                return s.trouble.refusedByBroker
            }
            if let failure {
                reportTrouble("cannot reach broker \(host):\(port): \(failure)")
            } else if !refused, MonotonicClock.now().seconds - state.withLock({ $0.lastProgressS }) >= 5 {
                reportTrouble("broker \(host):\(port) accepts TCP connections but no MQTT session came up")
            }
        }
    }

    /// Logs a connection problem at once the first time, then at most every 10 s while it lasts.
    private func reportTrouble(_ text: String, refusal: Bool = false) {
        let nowS = MonotonicClock.now().seconds
        let line: String? = state.withLock { s in
            if refusal { s.trouble.refusedByBroker = true }
            return s.trouble.report(text, nowS: nowS)
        }
        if let line { logger.warning("\(line)") }
    }

    private func handleConnect(code: Int32) {
        state.withLock { $0.answeredThisAttempt = true }
        guard code == 0 else {
            refused(code: code, text: connackText(code))
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
              code == 1 || code == Int32(MQTT_RC_UNSUPPORTED_PROTOCOL_VERSION.rawValue) else { return false }
        let switched = state.withLock { s -> Bool in
            guard s.speaksV5 else { return false }
            s.speaksV5 = false
            return true
        }
        guard switched else { return false }
        _ = mosquitto_int_option(handle, MOSQ_OPT_PROTOCOL_VERSION, Int32(MQTT_PROTOCOL_V311))
        return true
    }

    /// The CONNACK code as the broker meant it: MQTT 5 reason codes have their own strings (the 3.1.1 table
    /// calls them all "unknown reason"), and a 3.1.1-only broker answers an MQTT 5 CONNECT with its code 1.
    private func connackText(_ code: Int32) -> String {
        guard state.withLock({ $0.speaksV5 }) else { return String(cString: mosquitto_connack_string(code)) }
        let reason = code == 1 ? Int32(MQTT_RC_UNSUPPORTED_PROTOCOL_VERSION.rawValue) : code
        return String(cString: mosquitto_reason_string(reason))
    }

    private func handleDisconnect(code: Int32) {
        let (wasConnected, closedOnV5Connect) = state.withLock { s in
            defer {
                s.connected = false
                s.answeredThisAttempt = false
                s.lastProgressS = MonotonicClock.now().seconds
                if fatalDisconnectCodes.contains(code) { s.fatalDisconnect = true }
                if code != 0 { s.attemptFailed = true }
            }
            // libmosquitto calls this only once the TCP connection stood (a failed connect is silent): the broker
            // read our MQTT 5 CONNECT and hung up without a CONNACK.
            let closed = !s.connected && !s.answeredThisAttempt && s.speaksV5 && code == MOSQ_ERR_CONN_LOST.rawValue
            return (s.connected, closed)
        }
        // RabbitMQ 3.10 answers an MQTT 5 CONNECT by closing the connection: without this the client retried in
        // silence (the TCP probe finds the port open), and `auto` never fell back to 3.1.1.
        if closedOnV5Connect {
            refused(code: Int32(MQTT_RC_UNSUPPORTED_PROTOCOL_VERSION.rawValue), text: """
                it closed the connection on the MQTT 5 CONNECT without a CONNACK, as a broker without MQTT 5 \
                (RabbitMQ 3.10) does: Unsupported Protocol Version? (--mqtt-version 3.1.1 or auto)
                """)
        }
        let text = code == MOSQ_ERR_KEEPALIVE.rawValue ? "no answer from the broker within the keepalive"
            : errorText(code)
        // Losing a connection is news; a failed attempt while the trouble is being reported is not.
        if code != 0 {
            if wasConnected { logger.warning("disconnected: \(text)") } else { logger.debug("attempt ended: \(text)") }
        }
        emit(.disconnected(code: code, description: text))
    }

    /// Called with the state lock held, so the SUBACK callback cannot look the mid up before it is recorded.
    private func sendSubscribe(_ filter: String, qos: Int32, state s: inout State) {
        var mid: Int32 = 0
        if mosquitto_subscribe(handle, &mid, filter, qos) == MOSQ_ERR_SUCCESS.rawValue {
            s.pendingSubscribes[mid] = filter
        }
    }

    /// A broker that cannot serve a filter says so only in the SUBACK (RabbitMQ answers 0x80 to `$share/…`,
    /// an ACL denial looks the same): without this check the subscriber just never receives anything.
    private func handleSubscribed(mid: Int32, codes: [Int32]) {
        let filter = state.withLock { $0.pendingSubscribes.removeValue(forKey: mid) }
        guard let filter else { return }
        guard let code = codes.first(where: { $0 >= 0x80 }) else {
            state.withLock { _ = $0.subscribeRetryDelayS.removeValue(forKey: filter) }
            return
        }
        let text = code == 0x80 || !speaksMQTT5 ? "failure" : String(cString: mosquitto_reason_string(code))
        // A refusal may pass: a NATS node that just lost a cluster peer refuses subscriptions while JetStream
        // recovers. Ask again, 2 s, 4 s, … at most every 30 s, while connected (until then nothing is received).
        let retryS = state.withLock { s -> Double in
            s.refusedSubscriptions += 1
            let delayS = min(Self.subscribeRetryMaxS, (s.subscribeRetryDelayS[filter] ?? 1) * 2)
            s.subscribeRetryDelayS[filter] = delayS
            return delayS
        }
        logger.error("""
            broker \(currentBroker) refused the subscription to \(filter): \(text) (0x\(String(code, radix: 16))); \
            nothing on it is received; asking again in \(Int(retryS)) s
            """)
        emit(.subscriptionRefused(filter: filter, code: code))
        diagnostics.asyncAfter(deadline: .now() + retryS) { [weak self] in
            guard let self else { return }
            state.withLock { s in
                guard s.phase == .running, s.connected, s.pendingSubscribes.values.contains(filter) == false,
                      let qos = s.filters.first(where: { $0.0 == filter })?.1 else { return }
                sendSubscribe(filter, qos: qos, state: &s)
            }
        }
    }

    static let subscribeRetryMaxS = 30.0

    private func handlePublished(mid: Int32) {
        guard qos1InFlight.load(ordering: .sequentiallyConsistent) > 0 else { return }
        let waiter = state.withLock { s -> CheckedContinuation<Void, any Error>? in
            guard let entry = s.pendingQoS1.removeValue(forKey: mid) else { return nil }
            qos1InFlight.subtract(1, ordering: .sequentiallyConsistent)
            return entry
        }
        waiter?.resume()
    }

    /// On the network thread: copy the message and queue it in delivery order, nothing more.
    private func handleMessage(_ message: mosquitto_message) {
        guard let topicPointer = message.topic else { return }
        let topic = String(cString: topicPointer)
        let count = Int(max(0, message.payloadlen))
        let payload: [UInt8] = if let raw = message.payload, count > 0 {
            Array(UnsafeRawBufferPointer(start: raw, count: count))
        } else {
            []
        }
        dispatcher.receive(MQTTMessage(topic: topic, payload: payload, qos: message.qos, retain: message.retain))
    }

    /// MQTT topic filter matching (`+` one level, `#` the rest), as the broker does it.
    public static func matches(filter: String, topic: String) -> Bool {
        var result = false
        return mosquitto_topic_matches_sub(filter, topic, &result) == MOSQ_ERR_SUCCESS.rawValue && result
    }

    private func emit(_ event: MQTTConnectionEvent) {
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

    private func check(_ operation: String, _ rc: Int32) throws(MQTTError) {
        guard rc == MOSQ_ERR_SUCCESS.rawValue else {
            throw .library(operation: operation, code: rc, description: errorText(rc))
        }
    }
}

private func errorText(_ rc: Int32) -> String {
    String(cString: mosquitto_strerror(rc))
}

private final class MidBox: Sendable {
    let value = Mutex<Int32?>(nil)
}
