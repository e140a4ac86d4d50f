import Synchronization

/// One connection's incoming messages, in the order libmosquitto delivered them (its on_message order): ONE
/// bounded FIFO for every subscription, filled by the network thread without blocking and drained by ONE task that
/// hands each message to the handlers whose filter matches. (A queue per subscription drained by its own task loses
/// the order across topics: a `release` claim could be handled after its sender's `offline` presence.)
///
/// Overlapping filters, defined: the same filter may be subscribed several times (the broker holds one
/// subscription; every handler of that filter gets each message once). Two *different* filters that can match
/// the same topic are refused with `MQTTError.overlappingFilters`: mosquitto 2 sends one copy per matching
/// subscription and MQTT 3.1.1 cannot say which copy is whose, so a message would be silently duplicated.
/// A message no handler matches (a stray retained message after a resubscribe race) is counted in `unroutedCount`.
///
/// `direct`: the handlers run on the network thread itself, in the same order, with no queue and no task between
/// (for connections whose handlers only hand the message on without blocking: an `Inbox`, a link's wake-up
/// queue). It saves a thread wake-up per message: measured on drone-controller, ~60 of its ~390 wake-ups a second
/// in a flight, and a hop on the target → PCMD path in each of three services. The handlers' own queues bound
/// and count what a slow consumer leaves.
public final class MQTTDispatcher: Sendable {
    public typealias Handler = @Sendable (MQTTMessage) -> Void
    public typealias Matcher = @Sendable (_ filter: String, _ topic: String) -> Bool

    private struct Route {
        let filter: String
        let handler: Handler
    }

    private let routes = Mutex<[Route]>([])
    private let continuation: AsyncStream<MQTTMessage>.Continuation
    private let dropped = Atomic<Int>(0)
    private let unrouted = Atomic<Int>(0)
    private let drain = Mutex<Task<Void, Never>?>(nil)
    private let matches: Matcher
    /// Handlers run on the calling (network) thread.
    public let isDirect: Bool

    /// - Parameters:
    ///   - bufferLimit: messages held while the handlers fall behind; past it the oldest are dropped and counted.
    ///     Not used when `direct`.
    ///   - matches: MQTT filter matching (`MQTTClient.matches` in production; any equivalent in tests).
    ///   - direct: run the handlers in `receive`, on the caller's thread (see the type's comment).
    public init(bufferLimit: Int, matches: @escaping Matcher, direct: Bool = false) {
        let (stream, continuation) = AsyncStream.makeStream(
            of: MQTTMessage.self, bufferingPolicy: .bufferingNewest(max(1, bufferLimit)))
        self.continuation = continuation
        self.matches = matches
        isDirect = direct
        // Holds the dispatcher until `finish()` ends the stream (at once when direct: nothing is queued).
        let task = Task.detached { [self] in
            for await message in stream { route(message) }
        }
        drain.withLock { $0 = task }
    }

    /// Hands `message` to every handler whose filter matches it.
    private func route(_ message: MQTTMessage) {
        let handlers = routes.withLock { all in
            all.filter { matches(Self.matchFilter($0.filter), message.topic) }.map(\.handler)
        }
        if handlers.isEmpty { unrouted.add(1, ordering: .relaxed) }
        handlers.forEach { $0(message) }
    }

    /// Returns once `finish()` was called and every queued message was handed out.
    public func drained() async {
        await drain.withLock { $0 }?.value
    }

    /// Registers `handler` for `filter`; it runs on the dispatcher's task (on the network thread when `direct`),
    /// one message at a time, and must not block. Returns whether the filter is new (the broker must be told).
    @discardableResult
    public func add(filter: String, handler: @escaping Handler) throws(MQTTError) -> Bool {
        let result: Result<Bool, MQTTError> = routes.withLock { all in
            if let clash = all.first(where: { $0.filter != filter && Self.overlap($0.filter, filter) }) {
                return .failure(.overlappingFilters(filter, existing: clash.filter))
            }
            let isNew = !all.contains { $0.filter == filter }
            all.append(Route(filter: filter, handler: handler))
            return .success(isNew)
        }
        return try result.get()
    }

    /// Called on the network thread: never blocks; a full queue drops its oldest message and counts it.
    /// When `direct`, the handlers run here.
    public func receive(_ message: MQTTMessage) {
        if isDirect { return route(message) }
        if case .dropped = continuation.yield(message) { dropped.add(1, ordering: .relaxed) }
    }

    /// Ends the dispatcher task once the queued messages are handed out.
    public func finish() { continuation.finish() }

    /// Messages dropped unread because the handlers fell behind.
    public var droppedCount: Int { dropped.load(ordering: .relaxed) }
    /// Messages that matched no handler.
    public var unroutedCount: Int { unrouted.load(ordering: .relaxed) }

    /// The filter without a `$share/<group>/` prefix: what delivered topics are matched against.
    static func matchFilter(_ filter: String) -> String {
        guard filter.hasPrefix("$share/") else { return filter }
        let parts = filter.split(separator: "/", maxSplits: 2, omittingEmptySubsequences: false)
        return parts.count == 3 ? String(parts[2]) : filter
    }

    /// Whether some topic matches both filters (`+` one level, `#` this level and all below).
    public static func overlap(_ a: String, _ b: String) -> Bool {
        let x = matchFilter(a).split(separator: "/", omittingEmptySubsequences: false)
        let y = matchFilter(b).split(separator: "/", omittingEmptySubsequences: false)
        var level = 0
        while true {
            let p = level < x.count ? x[level] : nil
            let q = level < y.count ? y[level] : nil
            if p == "#" || q == "#" { return true }
            guard let p, let q else { return p == nil && q == nil }
            if p != "+" && q != "+" && p != q { return false }
            level += 1
        }
    }
}
