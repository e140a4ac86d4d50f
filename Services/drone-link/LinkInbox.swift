import QuadProtocol
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Hands flight commands from the MQTT side to the link thread and wakes it at once through an eventfd that the
/// thread polls together with the navdata socket (so a command leaves within about a millisecond).
final class LinkInbox: Sendable {
    private struct Pending {
        var commands: [FlightCommand] = []
        var stopRequested = false
        var dropped = 0
    }

    /// Commands held while the link thread is busy; past it the oldest go (only the newest matters to the drone).
    static let limit = 256
    private let pending = Mutex(Pending())
    /// Read end, polled by the link thread.
    let wakeDescriptor: Int32
    private let writeDescriptor: Int32

    init() throws(UDPSocket.Failure) {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw UDPSocket.Failure(call: "pipe", errorNumber: errno) }
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

    func post(_ command: FlightCommand) {
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
    var droppedCount: Int { pending.withLock { $0.dropped } }

    func requestStop() {
        pending.withLock { $0.stopRequested = true }
        wake()
    }

    /// Called by the link thread after every wake-up: drains the pipe, returns what was posted.
    func take() -> (commands: [FlightCommand], stop: Bool) {
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
