import Synchronization

/// Messages matching one filter, as an AsyncSequence, fed from the connection's one ordered queue (for one-filter
/// tools and tests; services use an `Inbox`, which keeps the order across filters). Buffering is bounded: when the
/// consumer falls behind, the oldest buffered messages are dropped and counted (`droppedCount`).
public final class MQTTSubscription: AsyncSequence, Sendable {
    public typealias Element = MQTTMessage

    public let filter: String
    public let qos: Int32
    let stream: AsyncStream<MQTTMessage>
    let continuation: AsyncStream<MQTTMessage>.Continuation
    private let dropped = Atomic<Int>(0)

    public init(filter: String, qos: Int32, bufferLimit: Int) {
        self.filter = filter
        self.qos = qos
        (stream, continuation) = AsyncStream.makeStream(of: MQTTMessage.self,
            bufferingPolicy: .bufferingNewest(bufferLimit))
    }

    /// Messages dropped because the consumer was too slow.
    public var droppedCount: Int { dropped.load(ordering: .relaxed) }

    /// Called by the connection's dispatcher (in order); a full buffer drops its oldest message.
    public func deliver(_ message: MQTTMessage) {
        if case .dropped = continuation.yield(message) {
            dropped.add(1, ordering: .relaxed)
        }
    }

    /// Ends the sequence (the connection shut down).
    public func finish() { continuation.finish() }

    public func makeAsyncIterator() -> AsyncStream<MQTTMessage>.Iterator { stream.makeAsyncIterator() }
}
