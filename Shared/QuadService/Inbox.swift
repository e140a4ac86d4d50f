#if canImport(Glibc)
import Glibc
#endif
import DatagramIO
import QuadMQTT
import Synchronization

/// Funnels a connection's subscriptions (and timers) into one ordered stream of events, so a service's state lives
/// in one loop and needs no locks. Messages keep the order the connection received them in, across all filters:
/// the client's one dispatcher calls each filter's transform in that order and the result goes straight in here.
///
/// Two ways to take the events: `events`, an AsyncSequence read by one task; or a handler given at init, called on
/// the sending thread, one event at a time under a lock, in the order they were sent (`init(handler:)`).
public final class Inbox<Event: Sendable>: Sendable {
    public let events: AsyncStream<Event>
    private let continuation: AsyncStream<Event>.Continuation
    private let clients = Mutex<[any MQTTConnection]>([])
    private let dropped = Atomic<Int>(0)
    private let handler: (@Sendable (Event) -> Void)?
    /// Held while the handler runs; true once the inbox finished.
    private let handling = Mutex(false)

    public init(bufferLimit: Int = 4096) {
        (events, continuation) = AsyncStream.makeStream(of: Event.self, bufferingPolicy: .bufferingNewest(bufferLimit))
        handler = nil
    }

    /// Every event goes to `handle` at once, on the thread that sends it (for a board service's connection: the
    /// network thread; for its tick: the tick thread), never two at a time, until `finish()`; `events` stays empty.
    /// A message then costs no wake-up of a task-pool thread: in drone-controller's 30 Hz flight that was the
    /// larger part of its CPU (perf: the pool thread's wake-ups and AsyncStream). `handle` must not block for long
    /// (it holds up the connection's network thread) and must not send into this inbox.
    public init(handler handle: @escaping @Sendable (Event) -> Void) {
        (events, continuation) = AsyncStream.makeStream(of: Event.self)
        continuation.finish()
        handler = handle
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

    /// Adds `event(now)` every `intervalMs` until the inbox finishes; `now` is monotonic, like receive stamps. A late
    /// tick is followed at once by the ones it missed. Call it after the `feed`s.
    ///
    /// When every connection fed into this inbox hands its messages over on its network thread (the board services:
    /// `MQTTConnection.deliversOnNetworkThread`), the tick runs on a plain thread sleeping to absolute monotonic
    /// deadlines. A `Task.sleep` tick wakes Dispatch's timer thread and a pool thread every time: 15 % of
    /// drone-controller's CPU samples in a flight (perf). Anywhere else it stays a task: there a message waits for
    /// its dispatcher's task in the same pool before it reaches the inbox, and a thread's tick would overtake it (a
    /// ground tool under load then reached its deadline before retained messages it had already received).
    public func tick(everyMs intervalMs: Int, _ event: @escaping @Sendable (_ nowUs: Int64) -> Event) {
        let direct = clients.withLock { list in !list.isEmpty && list.allSatisfy(\.deliversOnNetworkThread) }
        if direct {
            do {
                try tickOnThread(periodNs: Int64(max(1, intervalMs)) * 1_000_000, event)
                return
            } catch {
                // No thread to be had: the task below ticks instead.
            }
        }
        tickOnTask(everyMs: intervalMs, event)
    }

    private func tickOnThread(periodNs: Int64, _ event: @escaping @Sendable (_ nowUs: Int64) -> Event) throws {
        try LinkThread.start { [self] in
            var deadline = timespec()
            clock_gettime(CLOCK_MONOTONIC, &deadline)
            while true {
                let nanoseconds = Int64(deadline.tv_nsec) + periodNs
                deadline.tv_sec += Int(nanoseconds / 1_000_000_000)
                deadline.tv_nsec = Int(nanoseconds % 1_000_000_000)
                while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &deadline, nil) == EINTR {}
                // The thread ends at the first tick after the inbox finished.
                if !deliver(event(MonotonicClock.nowUs())) { return }
            }
        }
    }

    private func tickOnTask(everyMs intervalMs: Int, _ event: @escaping @Sendable (_ nowUs: Int64) -> Event) {
        Task { [self] in
            let clock = ContinuousClock()
            var next = clock.now
            while !Task.isCancelled {
                next = next.advanced(by: .milliseconds(intervalMs))
                try? await Task.sleep(until: next, clock: clock)
                if !deliver(event(MonotonicClock.nowUs())) { return }
            }
        }
    }

    public func send(_ event: Event) { _ = deliver(event) }

    /// Hands `event` on; false once the inbox finished.
    private func deliver(_ event: Event) -> Bool {
        if let handler {
            return handling.withLock { finished in
                guard !finished else { return false }
                handler(event)
                return true
            }
        }
        switch continuation.yield(event) {
        case .terminated: return false
        case .dropped: dropped.add(1, ordering: .relaxed)
        default: break
        }
        return true
    }

    /// No event is handed on after this returns (a handler running now ends first).
    public func finish() {
        handling.withLock { $0 = true }
        continuation.finish()
    }
}
