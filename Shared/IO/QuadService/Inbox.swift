#if canImport(Glibc)
import Glibc
#endif
import DatagramIO
import QuadMQTT
import Synchronization

/// The one inbox: funnels a connection's subscriptions (and timers, and any other source) into one ordered stream of
/// events, so a service's state lives in one loop and needs no locks. Messages keep the order the connection received
/// them in, across all filters: the client's one dispatcher calls each filter's transform in that order and the
/// result goes straight in here. One connection's messages are never split over several inboxes or queues.
///
/// Two ways to take the events, chosen at init (docs/architecture.md, "Event loops"):
/// - `Inbox()`: `events`, an AsyncSequence read by one task (navigator, ground tools, the logger's sync);
/// - `Inbox.polled()`: `take()`, drained by the loop's own `ServiceThread`, which sleeps in `wait` — poll()
///   on `wakeDescriptor`, readable while events wait, and on its sockets — until an event, a datagram or its next
///   deadline (drone-controller, the vehicle links); `Inbox.drained()`, the same without the pipe, for a loop
///   that takes between deadlines of its own (location-broadcaster's one-shot commands: one per `BusFeed` consumer).
public final class Inbox<Event: Sendable>: Sendable {
    public let events: AsyncStream<Event>
    private let continuation: AsyncStream<Event>.Continuation
    private let clients = Mutex<[any MQTTConnection]>([])
    private let dropped = Atomic<Int>(0)
    /// `polled()` and `drained()` only: the queue `take()` drains (`polled()`: and the pipe that wakes the thread).
    private let queue: PolledQueue?

    public init(bufferLimit: Int = 4096) {
        (events, continuation) = AsyncStream.makeStream(of: Event.self, bufferingPolicy: .bufferingNewest(bufferLimit))
        queue = nil
    }

    private init(queue: PolledQueue) {
        (events, continuation) = AsyncStream.makeStream(of: Event.self)
        continuation.finish()
        self.queue = queue
    }

    /// An inbox for a thread that also waits on sockets: it polls `wakeDescriptor` with them and calls `take()`
    /// after every wake-up (a sent event wakes it within about a millisecond). Past `limit` waiting events the
    /// oldest go, counted (only the newest flight command matters to a vehicle), and `dropping` hears the running
    /// total after each (outside the inbox's lock); `events` stays empty.
    public static func polled(limit: Int = 256, dropping: @escaping @Sendable (_ total: Int) -> Void = { _ in })
        throws(SocketFailure) -> Inbox {
        Inbox(queue: try PolledQueue(limit: limit, dropping: dropping))
    }

    /// `polled()` without the wake pipe (`wakeDescriptor` is -1): for a loop that sleeps by its own deadlines and
    /// calls `take()` between them (location-broadcaster's one-shot commands, through `BusFeed`).
    public static func drained(limit: Int, dropping: @escaping @Sendable (_ total: Int) -> Void = { _ in }) -> Inbox {
        Inbox(queue: PolledQueue(limit: limit, dropping: dropping, descriptors: (-1, -1)))
    }

    /// `polled()` only (-1 otherwise, which poll() ignores): readable while events wait or once the inbox finished.
    public var wakeDescriptor: Int32 { queue?.readDescriptor ?? -1 }

    /// `polled()` only: sleeps until an event waits, the inbox finished, one of `descriptors` is readable or the
    /// `deadline` passed (at most 1 ms late: poll() counts milliseconds); then call `take()`.
    public func wait(until deadline: MonotonicInstant, alsoOn descriptors: [Int32] = []) {
        PollWait.untilReadable(descriptors + [wakeDescriptor], timeout: deadline - MonotonicClock.now())
    }

    /// `polled()` and `drained()` only: every waiting event, in order, and whether the inbox finished (the thread's cue
    /// to stop, after handling these).
    public func take() -> (events: [Event], finished: Bool) {
        guard let queue else { return ([], true) }
        queue.drainPipe()
        return queue.state.withLock { state in
            defer { state.events = [] }
            return (state.events, state.finished)
        }
    }

    /// Subscribes `client` to `filter` and adds every message as `transform(message, receivedAt)`, stamped with
    /// its receive time on this host's MONOTONIC clock: every age and timeout a service decides on counts from
    /// receipt, never from a timestamp another host wrote (wall clocks differ between hosts and step).
    public func feed(_ client: any MQTTConnection, filter: String, qos: Int32,
                     _ transform: @escaping @Sendable (MQTTMessage, _ receivedAt: MonotonicInstant) -> Event)
        throws(MQTTError) {
        clients.withLock { list in
            if !list.contains(where: { $0 === client }) { list.append(client) }
        }
        try client.subscribe(filter, qos: qos) { [self] message in
            // The one place a message gets its receive time.
            send(transform(message, MonotonicClock.now()))
        }
    }

    /// Messages lost because the consumer fell behind: dropped from the connection's delivery queue or from the
    /// inbox's own (the oldest go first). Reported at shutdown, so a flood never goes unnoticed.
    public var droppedCount: Int {
        dropped.load(ordering: .relaxed) + clients.withLock { $0.reduce(0) { $0 + $1.droppedUnread } }
    }

    /// Adds `event(now)` every `interval` until the inbox finishes, from a task; `now` is monotonic, like receive
    /// stamps. A late tick is followed at once by the ones it missed. Call it after the `feed`s. For a task's loop
    /// (`events`); a loop on a thread of its own keeps its deadlines itself: it sleeps in `wait` until the next one.
    ///
    /// A task, never a thread: a ground tool's messages wait for their dispatcher's task in the same pool before they
    /// reach the inbox, and a tick from a thread could overtake them (a ground tool under load once reached its
    /// deadline before retained messages it had already received).
    public func tick(every interval: Duration, _ event: @escaping @Sendable (_ now: MonotonicInstant) -> Event) {
        let period = max(interval, .milliseconds(1))
        Task { [self] in
            let clock = ContinuousClock()
            var next = clock.now
            while !Task.isCancelled {
                next = next.advanced(by: period)
                try? await Task.sleep(until: next, clock: clock)
                if !deliver(event(MonotonicClock.now())) { return }
            }
        }
    }

    public func send(_ event: Event) { _ = deliver(event) }

    /// Hands `event` on; false once the inbox finished.
    private func deliver(_ event: Event) -> Bool {
        if let queue {
            let (accepted, wake, droppedTotal) = queue.state.withLock { state -> (Bool, Bool, Int?) in
                guard !state.finished else { return (false, false, nil) }
                let wasEmpty = state.events.isEmpty
                var droppedTotal: Int?
                if state.events.count >= queue.limit {
                    state.events.removeFirst()
                    droppedTotal = dropped.add(1, ordering: .relaxed).newValue
                }
                state.events.append(event)
                return (true, wasEmpty, droppedTotal)
            }
            if let droppedTotal { queue.dropping(droppedTotal) }
            // One wake-up per batch: `take()` drains the pipe before it takes the events, so an event added to a
            // queue that was not empty is taken with the ones before it.
            if wake { queue.wake() }
            return accepted
        }
        switch continuation.yield(event) {
        case .terminated: return false
        case .dropped: dropped.add(1, ordering: .relaxed)
        default: break
        }
        return true
    }

    /// No event is handed on after this returns.
    public func finish() {
        continuation.finish()
        if let queue {
            queue.state.withLock { $0.finished = true }
            queue.wake()
        }
    }

    /// What `polled()` adds: the waiting events, and a non-blocking self-pipe whose read end the thread polls.
    private final class PolledQueue: Sendable {
        struct State {
            var events: [Event] = []
            var finished = false
        }

        let state = Mutex(State())
        let limit: Int
        let dropping: @Sendable (_ total: Int) -> Void
        let readDescriptor: Int32
        private let writeDescriptor: Int32

        convenience init(limit: Int, dropping: @escaping @Sendable (_ total: Int) -> Void) throws(SocketFailure) {
            var ends: [Int32] = [0, 0]
            guard pipe(&ends) == 0 else { throw SocketFailure(call: "pipe", errorNumber: errno) }
            for fd in ends {
                _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            }
            self.init(limit: limit, dropping: dropping, descriptors: (ends[0], ends[1]))
        }

        /// `descriptors`: the pipe's read and write ends, or -1 and -1 for none.
        init(limit: Int, dropping: @escaping @Sendable (_ total: Int) -> Void, descriptors: (Int32, Int32)) {
            (readDescriptor, writeDescriptor) = descriptors
            self.limit = max(1, limit)
            self.dropping = dropping
        }

        deinit {
            guard readDescriptor >= 0 else { return }
            close(readDescriptor)
            close(writeDescriptor)
        }

        func wake() {
            guard writeDescriptor >= 0 else { return }
            // A full pipe (EAGAIN) already means "wake up".
            var byte: UInt8 = 1
            _ = write(writeDescriptor, &byte, 1)
        }

        func drainPipe() {
            guard readDescriptor >= 0 else { return }
            var drain = [UInt8](repeating: 0, count: 64)
            while drain.withUnsafeMutableBytes({ read(readDescriptor, $0.baseAddress, $0.count) }) > 0 {}
        }
    }
}
