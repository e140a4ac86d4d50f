import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Hands values (flight commands) from the MQTT side to a link thread and wakes it at once through a pipe that the
/// thread polls together with its socket (so a command leaves within about a millisecond).
public final class WakeInbox<Element: Sendable>: Sendable {
    private struct Pending {
        var commands: [Element] = []
        var stopRequested = false
        var dropped = 0
    }

    /// Commands held while the link thread is busy; past it the oldest go (only the newest matters to the drone).
    static var limit: Int { 256 }
    private let pending = Mutex(Pending())
    /// Read end, polled by the link thread.
    public let wakeDescriptor: Int32
    private let writeDescriptor: Int32

    public init() throws(SocketFailure) {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw SocketFailure(call: "pipe", errorNumber: errno) }
        for fd in ends {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        wakeDescriptor = ends[0]
        writeDescriptor = ends[1]
    }

    deinit {
        close(wakeDescriptor)
        close(writeDescriptor)
    }

    public func post(_ command: Element) {
        pending.withLock { p in
            if p.commands.count >= Self.limit {
                p.commands.removeFirst()
                p.dropped += 1
            }
            p.commands.append(command)
        }
        wake()
    }

    /// Commands dropped because the link thread fell behind.
    public var droppedCount: Int { pending.withLock { $0.dropped } }

    public func requestStop() {
        pending.withLock { $0.stopRequested = true }
        wake()
    }

    /// Called by the link thread after every wake-up: drains the pipe, returns what was posted.
    public func take() -> (commands: [Element], stop: Bool) {
        var drain = [UInt8](repeating: 0, count: 64)
        while drain.withUnsafeMutableBytes({ read(wakeDescriptor, $0.baseAddress, $0.count) }) > 0 {}
        return pending.withLock { p in
            defer { p.commands = [] }
            return (p.commands, p.stopRequested)
        }
    }

    private func wake() {
        // A full pipe (EAGAIN) already means "wake up".
        var byte: UInt8 = 1
        _ = write(writeDescriptor, &byte, 1)
    }
}
