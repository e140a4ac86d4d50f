/// A message as delivered to a subscriber: copied out of libmosquitto's buffers, safe to keep.
public struct MQTTMessage: Sendable, Equatable {
    public var topic: String
    public var payload: [UInt8]
    public var qos: Int32
    /// True when the broker delivered a stored retained message (sent before we subscribed).
    public var retain: Bool

    public init(topic: String, payload: [UInt8], qos: Int32 = 0, retain: Bool = false) {
        self.topic = topic
        self.payload = payload
        self.qos = qos
        self.retain = retain
    }
}

/// Connection changes, for logging and link indicators.
public enum MQTTConnectionEvent: Sendable, Equatable {
    case connected
    /// `code` is libmosquitto's reason (0 = we asked for it); `description` is its text.
    case disconnected(code: Int32, description: String)
    /// The broker refused the connection (CONNACK code). A broker that closes the connection on an MQTT 5 CONNECT
    /// without any CONNACK (RabbitMQ 3.10) is reported as 0x84, Unsupported Protocol Version.
    case refused(code: Int32, description: String)
    /// The supervisor restarted the network loop after libmosquitto stopped retrying.
    case loopRestarted(reason: String)
    /// The broker answered a SUBSCRIBE with a failure (`code` ≥ 0x80: 0x80 in 3.1.1, an MQTT 5 reason code).
    case subscriptionRefused(filter: String, code: Int32)
}

extension MQTTConnectionEvent {
    /// The broker refused the CONNECT for its protocol version: a 3.1.1-only broker (RabbitMQ 3.10, NATS 2.9)
    /// answers an MQTT 5 CONNECT with the 3.1.1 code 1, an MQTT 5 broker with 0x84. Retrying will not change it.
    public var isUnsupportedProtocolVersion: Bool {
        guard case .refused(let code, _) = self else { return false }
        return code == 1 || code == 0x84
    }
}

public enum MQTTError: Error, Equatable, CustomStringConvertible {
    /// libmosquitto returned an error code for an operation.
    case library(operation: String, code: Int32, description: String)
    /// Too many QoS 1 messages are waiting for acknowledgement (broker unreachable?): the new one was refused.
    case offlineQueueFull(pending: Int)
    /// No connection (QoS 0) or the connection is being (re)started (any QoS): the message was not sent.
    case notConnected
    /// `publishAndWait` did not see the broker's acknowledgement in time.
    case acknowledgementTimeout(after: Duration)
    case shutDown
    /// Two different filters on one connection that can match the same topic (see `MQTTDispatcher`).
    case overlappingFilters(String, existing: String)

    public var description: String {
        switch self {
        case .library(let op, let code, let text): "\(op) failed: \(text) (\(code))"
        case .offlineQueueFull(let pending): "offline queue full: \(pending) QoS 1 messages await acknowledgement"
        case .notConnected: "not connected to the broker (message not sent)"
        case .acknowledgementTimeout(let wait): "no acknowledgement from the broker within \(wait)"
        case .shutDown: "the client is shut down"
        case .overlappingFilters(let new, let old):
            "filter \(new) overlaps \(old) on the same connection (the broker would send such messages twice)"
        }
    }
}
