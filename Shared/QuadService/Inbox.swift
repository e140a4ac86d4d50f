import QuadMQTT
import Synchronization

/// Funnels several subscriptions (and timers) into one ordered stream of events, so a service's state lives in
/// one loop and needs no locks.
public final class Inbox<Event: Sendable>: Sendable {
    public let events: AsyncStream<Event>
    private let continuation: AsyncStream<Event>.Continuation
    private let fed = Mutex<[MQTTSubscription]>([])
    private let dropped = Atomic<Int>(0)

    public init(bufferLimit: Int = 4096) {
        (events, continuation) = AsyncStream.makeStream(of: Event.self, bufferingPolicy: .bufferingNewest(bufferLimit))
    }

    /// Forwards every message of `subscription` as `transform(message)`, stamped with its receive time on this
    /// host's MONOTONIC clock: every age and timeout a service decides on counts from receipt, never from a
    /// timestamp another host wrote (wall clocks differ between hosts and step).
    public func feed(_ subscription: MQTTSubscription,
                     _ transform: @escaping @Sendable (MQTTMessage, _ receivedAtUs: Int64) -> Event) {
        fed.withLock { $0.append(subscription) }
        Task {
            for await message in subscription {
                if case .dropped = continuation.yield(transform(message, WallClock.monotonicUs())) {
                    self.dropped.add(1, ordering: .relaxed)
                }
            }
        }
    }

    /// Messages lost because the consumer fell behind: dropped from a fed subscription's buffer or from the
    /// inbox's own (the oldest go first). Reported at shutdown, so a flood never goes unnoticed.
    public var droppedCount: Int {
        dropped.load(ordering: .relaxed) + fed.withLock { $0.reduce(0) { $0 + $1.droppedCount } }
    }

    /// Adds `event(now)` every `intervalMs` until the inbox finishes; `now` is monotonic, like receive stamps.
    public func tick(everyMs intervalMs: Int, _ event: @escaping @Sendable (_ nowUs: Int64) -> Event) {
        Task {
            let clock = ContinuousClock()
            var next = clock.now
            while !Task.isCancelled {
                next = next.advanced(by: .milliseconds(intervalMs))
                try? await Task.sleep(until: next, clock: clock)
                if case .terminated = continuation.yield(event(WallClock.monotonicUs())) { return }
            }
        }
    }

    public func send(_ event: Event) {
        if case .dropped = continuation.yield(event) { dropped.add(1, ordering: .relaxed) }
    }
    public func finish() { continuation.finish() }
}
