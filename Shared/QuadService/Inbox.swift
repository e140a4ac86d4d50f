import QuadMQTT

/// Funnels several subscriptions (and timers) into one ordered stream of events, so a service's state lives in
/// one loop and needs no locks.
public final class Inbox<Event: Sendable>: Sendable {
    public let events: AsyncStream<Event>
    private let continuation: AsyncStream<Event>.Continuation

    public init(bufferLimit: Int = 4096) {
        (events, continuation) = AsyncStream.makeStream(of: Event.self, bufferingPolicy: .bufferingNewest(bufferLimit))
    }

    /// Forwards every message of `subscription` as `transform(message)`, stamped with its receive time.
    public func feed(_ subscription: MQTTSubscription,
                     _ transform: @escaping @Sendable (MQTTMessage, _ receivedAtUs: Int64) -> Event) {
        Task {
            for await message in subscription {
                continuation.yield(transform(message, WallClock.nowUs()))
            }
        }
    }

    /// Adds `event(now)` every `intervalMs` until the inbox finishes.
    public func tick(everyMs intervalMs: Int, _ event: @escaping @Sendable (_ nowUs: Int64) -> Event) {
        Task {
            let clock = ContinuousClock()
            var next = clock.now
            while !Task.isCancelled {
                next = next.advanced(by: .milliseconds(intervalMs))
                try? await Task.sleep(until: next, clock: clock)
                if case .terminated = continuation.yield(event(WallClock.nowUs())) { return }
            }
        }
    }

    public func send(_ event: Event) { continuation.yield(event) }
    public func finish() { continuation.finish() }
}
