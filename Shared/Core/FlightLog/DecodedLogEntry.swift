import Clocks
import Mission
import QuadProtocol

/// A log record with its payload decoded, the input of every exporter.
public struct DecodedLogEntry: Sendable, Equatable {
    public enum Content: Sendable, Equatable {
        /// A binary message of the bus protocol.
        case message(AnyWireMessage)
        /// A mission payload (their own header and codec: PROTOCOL.md "Missions").
        case mission(MissionPayload)
        /// A UTF-8 text payload (service status JSON, bare command words).
        case text(String)
        /// None of these: kept for the record with the reason the codec gave (the bus's or the mission's).
        case undecodable(String)
    }

    public var receiveTimeUs: Int64
    public var topic: String
    public var retain: Bool
    public var qos: UInt8
    public var payload: [UInt8]
    public var content: Content

    public init(receiveTimeUs: Int64, topic: String, retain: Bool = false, qos: UInt8 = 0, payload: [UInt8],
                content: Content) {
        self.receiveTimeUs = receiveTimeUs
        self.topic = topic
        self.retain = retain
        self.qos = qos
        self.payload = payload
        self.content = content
    }

    /// Decodes the record's payload with the bus codec. Text on the target and command topics goes through the
    /// codec's text forms (JSON target, command word) as the services do; other text payloads stay text.
    public init(record: LogRecord) {
        let content: Content
        if MissionPayload.hasMagic(record.payload) {
            do { content = .mission(try MissionPayload.decode(record.payload)) } catch {
                content = .undecodable("\(error)")
            }
            self.init(receiveTimeUs: record.receiveTimeUs, topic: record.topic, retain: record.retain, qos: record.qos,
                      payload: record.payload, content: content)
            return
        }
        do {
            content = .message(try AnyWireMessage.decode(record.payload))
        } catch {
            if case .looksLikeText = error, let text = String(validating: record.payload, as: UTF8.self) {
                content = Self.decodeText(text, record: record)
            } else {
                content = .undecodable("\(error)")
            }
        }
        self.init(receiveTimeUs: record.receiveTimeUs, topic: record.topic, retain: record.retain, qos: record.qos,
                  payload: record.payload, content: content)
    }

    private static func decodeText(_ text: String, record: LogRecord) -> Content {
        guard let drone = DroneID(topic: record.topic) else { return .text(text) }
        if record.topic == Topics.target.topic(for: drone),
           let target = try? InboundTarget.decode(payload: record.payload, receivedAt: record.receiveTime) {
            return .message(.target(target))
        }
        if record.topic == Topics.command.topic(for: drone),
           let command = try? InboundCommand.decode(payload: record.payload, receivedAt: record.receiveTime) {
            return .message(.command(command))
        }
        return .text(text)
    }

    /// A message built in memory (tests, simulations); the payload is its encoding, or empty if it has none.
    public init(receiveTimeUs: Int64, topic: String, message: any WireMessage) {
        self.init(receiveTimeUs: receiveTimeUs, topic: topic, payload: (try? message.encoded()) ?? [],
                  content: .message(AnyWireMessage(message)))
    }

    /// `position_fix`, `text` or `undecodable`.
    public var typeName: String {
        switch content {
        case .message(let message): message.messageType.jsonName
        case .mission(let payload): payload.typeName
        case .text: "text"
        case .undecodable: "undecodable"
        }
    }
}
