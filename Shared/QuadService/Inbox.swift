import QuadMQTT
import Synchronization

/// Funnels a connection's subscriptions (and timers) into one ordered stream of events, so a service's state lives
/// in one loop and needs no locks. Messages keep the order the connection received them in, across all filters:
/// the client's one dispatcher calls each filter's transform in that order and the result goes straight in here.
public final class Inbox<Event: Sendable>: Sendable {
    public let events: AsyncStream<Event>
    private let continuation: AsyncStream<Event>.Continuation
    private let clients = Mutex<[any MQTTConnection]>([])
    private let dropped = Atomic<Int>(0)

    public init(bufferLimit: Int = 4096) {
        (events, continuation) = AsyncStream.makeStream(of: Event.self, bufferingPolicy: .bufferingNewest(bufferLimit))
    }

    /// Subscribes `client` to `filter` and adds every message as `transform(message, receivedAtUs)`, stamped with
    /// its receive time on this host's MONOTONIC clock: every age and timeout a service decides on counts from
    /// receipt, never from a timestamp another host wrote (wall clocks differ between hosts and step).
    public func feed(_ client: any MQTTConnection, filter: String, qos: Int32,
                     _ transform: @escaping @Sendable (MQTTMessage, _ receivedAtUs: Int64) -> Event) throws(MQTTError) {
        clients.withLock { list in
            if !list.contains(where: { $0 === client }) { list.append(client) }
        }
        try client.subscribe(filter, qos: qos) { [self] message in
            // The one place a message gets its receive time.
            send(transform(message, MonotonicClock.nowUs()))
        }
    }

    /// Messages lost because the consumer fell behind: dropped from the connection's delivery queue or from the
    /// inbox's own (the oldest go first). Reported at shutdown, so a flood never goes unnoticed.
    public var droppedCount: Int {
        dropped.load(ordering: .relaxed) + clients.withLock { $0.reduce(0) { $0 + $1.droppedUnread } }
    }

    /// Adds `event(now)` every `intervalMs` until the inbox finishes; `now` is monotonic, like receive stamps.
    public func tick(everyMs intervalMs: Int, _ event: @escaping @Sendable (_ nowUs: Int64) -> Event) {
        Task {
            let clock = ContinuousClock()
            var next = clock.now
            while !Task.isCancelled {
                next = next.advanced(by: .milliseconds(intervalMs))
                try? await Task.sleep(until: next, clock: clock)
                if case .terminated = continuation.yield(event(MonotonicClock.nowUs())) { return }
            }
        }
    }

    public func send(_ event: Event) {
        if case .dropped = continuation.yield(event) { dropped.add(1, ordering: .relaxed) }
    }
    public func finish() { continuation.finish() }
}
