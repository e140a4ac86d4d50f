import CMosquitto
import Dispatch
#if canImport(Glibc)
import Glibc
#endif
import Clocks
import Logging
import Synchronization

// The only file that imports libmosquitto: the client's state and every call into the library. What the client does
// with them is split by idea: `MQTTClient+Supervisor` (start, the supervisor's thread, restarts, shutdown),
// `+Connection` (CONNACK, refusals, disconnects, the events and the trouble lines), `+Subscriptions` and
// `+Publishing`. Rules it follows, from how libmosquitto behaves (its threaded loop):
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
// - loop_start/loop_stop run on the supervisor's one thread; shutdown is disconnect → loop_stop(force: false) →
//   destroy, bounded in time (a thread stuck in a blocking reconnect is left to the process exit), never
//   pthread_cancel.

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
    public let configuration: MQTTConfiguration
    let logger: Logger
    // libmosquitto's calls are thread-safe apart from mosquitto_lib_init (its header says so).
    nonisolated(unsafe) private let handle: OpaquePointer
    let state = Mutex(MQTTClientState())
    /// Whether `configuration.announcement` is still sent; held across each announcement's publish, so that once
    /// `endAnnouncement` returns none is in flight (a goodbye's `offline` is never followed by an `online`).
    let announcing = Mutex(true)
    let onConnect: (@Sendable (MQTTClient) -> Void)?
    /// Wakes the supervisor's thread before its next 250 ms check (`shutdown`).
    let supervisorWake = DispatchSemaphore(value: 0)
    /// Signalled by the supervisor's thread as it ends (after stopping the loop).
    let supervisorEnded = DispatchSemaphore(value: 0)
    /// QoS 1 publishes begun or awaiting their PUBACK (entries of `pendingQoS1`, plus one being made). libmosquitto
    /// calls `on_publish` on the network thread for every QoS 0 publish too, while the publishing thread may still
    /// hold `state` across the library call: at zero the callback has nothing to look up and skips the lock (a
    /// flight's 47 commands a second otherwise contend for it, each a futex wait and a context switch).
    let qos1InFlight = Atomic<Int>(0)
    let dispatcher: MQTTDispatcher

    /// - Parameter onConnect: runs on the network thread after every CONNACK, after the subscriptions were
    ///   re-made and the announcement sent; may publish (publishing only queues), must not block.
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

    private func check(_ operation: String, _ rc: Int32) throws(MQTTError) {
        guard rc == MOSQ_ERR_SUCCESS.rawValue else {
            throw .library(operation: operation, code: rc, description: errorText(rc))
        }
    }
}

// MARK: - The library calls the other files make

extension MQTTClient {
    /// connect_async to `endpoint`: nil when the CONNECT is on its way, else why not (a refused or unreachable
    /// broker, DNS).
    func libraryConnect(_ endpoint: MQTTConfiguration.Endpoint) -> String? {
        errno = 0
        let rc = mosquitto_connect_async(handle, endpoint.host, endpoint.port, configuration.keepAliveS)
        guard rc != MOSQ_ERR_SUCCESS.rawValue else { return nil }
        return rc == MOSQ_ERR_ERRNO.rawValue ? String(cString: strerror(errno)) : errorText(rc)
    }

    func libraryLoopStart() throws(MQTTError) { try check("loop_start", mosquitto_loop_start(handle)) }

    /// Disconnect first, so the network thread leaves its loop, then join it.
    func libraryLoopStop() {
        mosquitto_disconnect(handle)
        mosquitto_loop_stop(handle, false)
    }

    func libraryDisconnect() { mosquitto_disconnect(handle) }

    /// The next CONNECT speaks MQTT 3.1.1.
    func libraryUseV311() { _ = mosquitto_int_option(handle, MOSQ_OPT_PROTOCOL_VERSION, Int32(MQTT_PROTOCOL_V311)) }

    enum LibraryPublish {
        case sent(mid: Int32)
        /// No connection: a QoS 1 message is kept by the library and resent after the reconnect.
        case notConnected(mid: Int32)
        case failed(code: Int32, description: String)
    }

    func libraryPublish(topic: String, payload: [UInt8], qos: Int32, retain: Bool, expiryS: UInt32?)
        -> LibraryPublish {
        var mid: Int32 = 0
        var properties: OpaquePointer?
        defer { mosquitto_property_free_all(&properties) }
        if let expiryS {
            _ = mosquitto_property_add_int32(&properties, Int32(MQTT_PROP_MESSAGE_EXPIRY_INTERVAL.rawValue), expiryS)
        }
        let rc = payload.withUnsafeBytes {
            mosquitto_publish_v5(handle, &mid, topic, Int32($0.count), $0.baseAddress, qos, retain, properties)
        }
        if rc == MOSQ_ERR_SUCCESS.rawValue { return .sent(mid: mid) }
        if rc == MOSQ_ERR_NO_CONN.rawValue { return .notConnected(mid: mid) }
        return .failed(code: rc, description: errorText(rc))
    }

    /// The SUBSCRIBE's mid, or nil if it could not be sent.
    func librarySubscribe(_ filter: String, qos: Int32) -> Int32? {
        var mid: Int32 = 0
        return mosquitto_subscribe(handle, &mid, filter, qos) == MOSQ_ERR_SUCCESS.rawValue ? mid : nil
    }

    /// The CONNACK code as the broker meant it: MQTT 5 reason codes have their own strings (the 3.1.1 table
    /// calls them all "unknown reason"), and a 3.1.1-only broker answers an MQTT 5 CONNECT with its code 1.
    static func connackText(_ code: Int32, v5: Bool) -> String {
        guard v5 else { return String(cString: mosquitto_connack_string(code)) }
        let reason = code == 1 ? unsupportedProtocolVersion : code
        return String(cString: mosquitto_reason_string(reason))
    }

    /// An MQTT 5 reason code's text.
    static func reasonText(_ code: Int32) -> String { String(cString: mosquitto_reason_string(code)) }

    static func disconnectText(_ code: Int32) -> String {
        code == MOSQ_ERR_KEEPALIVE.rawValue ? "no answer from the broker within the keepalive" : errorText(code)
    }

    static func isFatalDisconnect(_ code: Int32) -> Bool { fatalDisconnectCodes.contains(code) }
    static let connectionLost = MOSQ_ERR_CONN_LOST.rawValue
    static let unsupportedProtocolVersion = Int32(MQTT_RC_UNSUPPORTED_PROTOCOL_VERSION.rawValue)
}

private func errorText(_ rc: Int32) -> String {
    String(cString: mosquitto_strerror(rc))
}
