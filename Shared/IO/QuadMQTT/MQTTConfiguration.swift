/// Everything needed to open one broker connection. One connection per service, each with its own client id.
public struct MQTTConfiguration: Sendable {
    public enum ProtocolVersion: String, Sendable, CaseIterable {
        case v311 = "3.1.1"
        case v5 = "5"
        /// MQTT 5, and 3.1.1 when the broker answers that it does not speak 5 (RabbitMQ, NATS): what a ground
        /// tool wants, so that its ttl-carrying publishes get a Message Expiry wherever the broker can keep one.
        case auto
    }

    public struct TLS: Sendable, Equatable {
        public var caFile: String
        public var certFile: String?
        public var keyFile: String?
        public init(caFile: String, certFile: String? = nil, keyFile: String? = nil) {
            self.caFile = caFile
            self.certFile = certFile
            self.keyFile = keyFile
        }
    }

    public struct Will: Sendable, Equatable {
        public var topic: String
        public var payload: [UInt8]
        public var qos: Int32
        public var retain: Bool
        public init(topic: String, payload: [UInt8], qos: Int32 = 1, retain: Bool = true) {
            self.topic = topic
            self.payload = payload
            self.qos = qos
            self.retain = retain
        }
    }

    /// A retained message the connection keeps published (a service's `online` presence): sent after every
    /// CONNACK, once the subscriptions are re-made, and again every `interval` while connected, from the
    /// supervisor's thread (`MQTTClient.announceIfDue`), so a reader that lost the retained copy (RabbitMQ keeps it
    /// on one node) hears it within an interval.
    public struct Announcement: Sendable, Equatable {
        public var topic: String
        public var payload: [UInt8]
        public var qos: Int32
        public var retain: Bool
        public var interval: Duration
        public init(topic: String, payload: [UInt8], qos: Int32 = 1, retain: Bool = true, interval: Duration) {
            self.topic = topic
            self.payload = payload
            self.qos = qos
            self.retain = retain
            self.interval = interval
        }
    }

    /// One broker of a cluster.
    public struct Endpoint: Sendable, Equatable, CustomStringConvertible {
        public var host: String
        public var port: Int32
        public init(host: String, port: Int32) {
            self.host = host
            self.port = port
        }
        public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
    }

    /// The first broker tried.
    public var host: String
    public var port: Int32
    /// More nodes of the same cluster: when the connection is lost or refused the client tries the next one
    /// (round robin over `brokers`), at the reconnect pace.
    public var alternateBrokers: [Endpoint]
    public var brokers: [Endpoint] { [Endpoint(host: host, port: port)] + alternateBrokers }
    public var clientId: String
    public var username: String?
    public var password: String?
    public var tls: TLS?
    /// Seconds; libmosquitto accepts 0 or 5…65535. The broker declares us dead after 1.5× this.
    public var keepAliveS: Int32
    public var protocolVersion: ProtocolVersion
    public var will: Will?
    public var announcement: Announcement?
    /// Most QoS 1 publishes that may wait for their PUBACK (in flight or queued while offline). Beyond it
    /// `publish` throws `.offlineQueueFull` and the message is refused, never silently dropped.
    public var maxPendingQoS1: Int
    /// libmosquitto's own reconnect delay (after a connection was lost) grows linearly from `reconnectDelayS` to
    /// `reconnectDelayMaxS`, whole seconds. Both 1 by default: a broker back after any downtime is found within
    /// about a second, never after a backoff grown during a long outage (a retry is one connect() to it).
    public var reconnectDelayS: UInt32
    public var reconnectDelayMaxS: UInt32
    /// When a connect made by us fails (the first one, and every one after a loop restart: a broker not up yet),
    /// the supervisor tries again this often; libmosquitto itself never retries that connect. One broker only
    /// (a cluster moves on to the next broker at the reconnect pace instead).
    public var connectRetryS = 0.5
    /// If no CONNACK has arrived for this long while we want a connection, the supervisor restarts the
    /// network loop (libmosquitto gives up for good on DNS, TLS, protocol and v5 auth errors).
    public var supervisorRestartAfterS: Double
    /// Messages the connection's one delivery queue holds while its consumers fall behind (the oldest are then
    /// dropped and counted in `MQTTClient.droppedUnread`).
    public var deliveryBufferLimit: Int
    /// Subscription handlers run on the network thread, with no delivery queue (`MQTTDispatcher`'s `direct`):
    /// only for a connection whose every handler hands messages on without blocking.
    public var deliversOnNetworkThread = false

    public init(host: String = "127.0.0.1", port: Int32 = 1883, clientId: String, username: String? = nil,
                password: String? = nil, tls: TLS? = nil, keepAliveS: Int32 = 10,
                protocolVersion: ProtocolVersion = .v311, will: Will? = nil, maxPendingQoS1: Int = 1000,
                reconnectDelayS: UInt32 = 1, reconnectDelayMaxS: UInt32 = 1, supervisorRestartAfterS: Double = 15,
                deliveryBufferLimit: Int = 4096, alternateBrokers: [Endpoint] = []) {
        self.host = host
        self.port = port
        self.alternateBrokers = alternateBrokers
        self.clientId = clientId
        self.username = username
        self.password = password
        self.tls = tls
        self.keepAliveS = keepAliveS
        self.protocolVersion = protocolVersion
        self.will = will
        self.maxPendingQoS1 = maxPendingQoS1
        self.reconnectDelayS = reconnectDelayS
        self.reconnectDelayMaxS = reconnectDelayMaxS
        self.supervisorRestartAfterS = supervisorRestartAfterS
        self.deliveryBufferLimit = deliveryBufferLimit
    }
}
