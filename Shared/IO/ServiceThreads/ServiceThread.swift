#if canImport(Glibc)
import Glibc
#endif

/// The one place where the project makes a thread (docs/architecture.md, "Event loops"). A service thread is a
/// plain pthread for work that must never wait on, nor block, the Swift concurrency pool: a loop that keeps time
/// or sleeps in poll() (drone-controller, the vehicle links), the MQTT client's supervisor, a blocking call (DNS, a
/// connect with a timeout, a gpsd socket read).
///
/// `ServiceThread(body)` runs `body` on a new thread and hands its result to whoever awaits `value` (a service's
/// task: it starts the loop, waits for the graceful shutdown, finishes the loop's inbox, then awaits `value`);
/// `ServiceThread.detach(body)` runs `body` with nobody waiting for it.
public struct ServiceThread<Result: Sendable>: Sendable {
    private let ended: AsyncStream<Result>

    /// Starts `body` on a new thread now.
    public init(_ body: @escaping @Sendable () -> Result) throws(ThreadStartFailure) {
        let (ended, end) = AsyncStream<Result>.makeStream()
        self.ended = ended
        try startDetached {
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

extension ServiceThread where Result == Void {
    /// Starts `run` on a new, detached thread now; nobody waits for it.
    public static func detach(_ run: @escaping @Sendable () -> Void) throws(ThreadStartFailure) {
        try startDetached(run)
    }
}

private func startDetached(_ run: @escaping @Sendable () -> Void) throws(ThreadStartFailure) {
    let box = Unmanaged.passRetained(Body(run)).toOpaque()
    var thread = pthread_t()
    let result = pthread_create(&thread, nil, { raw in
        guard let raw else { return nil }
        Unmanaged<Body>.fromOpaque(raw).takeRetainedValue().run()
        return nil
    }, box)
    guard result == 0 else {
        Unmanaged<Body>.fromOpaque(box).release()
        throw ThreadStartFailure(errorNumber: result)
    }
    pthread_detach(thread)
}

private final class Body: Sendable {
    let run: @Sendable () -> Void
    init(_ run: @escaping @Sendable () -> Void) { self.run = run }
}

/// pthread_create failed (EAGAIN: out of threads or memory).
public struct ThreadStartFailure: Error, CustomStringConvertible {
    public let errorNumber: Int32
    public var description: String { "pthread_create: \(String(cString: strerror(errorNumber)))" }
}
