import DatagramIO

/// A loop that owns its state on a plain thread of its own (`LinkThread`): its timing never waits on the Swift
/// concurrency pool, and it holds no pool thread while it waits (docs/architecture.md, "Event loops"). The service's
/// task starts it, waits for shutdown, finishes the loop's inbox and then awaits `value`.
public struct OwnThread<Result: Sendable>: Sendable {
    private let ended: AsyncStream<Result>

    /// Starts `body` on a new thread now.
    public init(_ body: @escaping @Sendable () -> Result) throws(SocketFailure) {
        let (ended, end) = AsyncStream<Result>.makeStream()
        self.ended = ended
        try LinkThread.start {
            end.yield(body())
            end.finish()
        }
    }

    /// What `body` returned, once it returned (nil if the waiting task was cancelled first).
    public var value: Result? {
        get async {
            for await result in ended { return result }
            return nil
        }
    }
}
