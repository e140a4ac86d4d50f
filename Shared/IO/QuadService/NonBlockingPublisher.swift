import Logging
import QuadMQTT
import QuadProtocol

/// Publishes bus messages from a link thread with the topic table's QoS/retain. Never blocks: a message published
/// while the broker is away is dropped and counted (a link must not wait for MQTT); other failures are logged at
/// most every 10 s.
public struct NonBlockingPublisher {
    public let runtime: ServiceRuntime
    public private(set) var droppedWhileDisconnected = 0
    private var failures = 0
    private var lastFailureLogUs: Int64?

    public init(runtime: ServiceRuntime) {
        self.runtime = runtime
    }

    public mutating func publish<Message: WireMessage>(_ spec: TopicSpec<Message>, _ message: Message) {
        attempt(spec) { try $0.publish(spec, payload: message.encoded()) }
    }

    /// A payload its own codec encoded (the mission topics' layouts).
    public mutating func publish<Payload>(_ spec: TopicSpec<Payload>, bytes: [UInt8]) {
        attempt(spec) { try $0.publish(spec, payload: bytes) }
    }

    private mutating func attempt<Payload>(_ spec: TopicSpec<Payload>, _ body: (ServiceRuntime) throws -> Void) {
        do {
            try body(runtime)
        } catch let error as MQTTError where error == .notConnected {
            droppedWhileDisconnected += 1
        } catch {
            failures += 1
            let nowUs = MonotonicClock.nowUs()
            if let last = lastFailureLogUs, nowUs - last < 10_000_000 { return }
            lastFailureLogUs = nowUs
            runtime.logger.warning("publish on \(spec.path) failed: \(error) (\(failures) failures so far)")
        }
    }
}
