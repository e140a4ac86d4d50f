import Clocks
import ServiceThreads
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A TCP connection to gpsd (POSIX sockets); `GPSDClient` keeps one up. Blocking calls (the connect, the reads) run
/// on a `ServiceThread` of their own, never on the cooperative thread pool; received bytes arrive as an AsyncStream,
/// with a `.idle` every poll interval so the consumer can run its timers even when gpsd is silent.
public final class GPSDSocket: Sendable {
    public enum Input: Sendable, Equatable {
        case bytes([UInt8])
        case idle
        case closed(reason: String)
    }

    public struct ConnectError: Error, Equatable, CustomStringConvertible {
        public var description: String
    }

    private let fd: Int32
    private let closed = Atomic<Bool>(false)

    private init(fd: Int32) { self.fd = fd }

    deinit { Glibc.close(fd) }

    /// Resolves `host`, connects with a timeout.
    public static func connect(host: String, port: UInt16, timeout: Duration = .seconds(3)) async throws
        -> GPSDSocket {
        let timeoutMs = Int32(clamping: max(0, timeout.us) / 1000)
        return try await withCheckedThrowingContinuation { continuation in
            do {
                try ServiceThread.detach {
                    continuation.resume(with: Result { try connectBlocking(host: host, port: port,
                                                                           timeoutMs: timeoutMs) })
                }
            } catch {
                continuation.resume(throwing: error)
            }
        }
    }

    private static func connectBlocking(host: String, port: UInt16, timeoutMs: Int32) throws -> GPSDSocket {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let rc = getaddrinfo(host, String(port), &hints, &list)
        guard rc == 0, let first = list else {
            throw ConnectError(description: "cannot resolve \(host): \(String(cString: gai_strerror(rc)))")
        }
        defer { freeaddrinfo(list) }
        var lastError = "no address"
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let info = entry {
            entry = info.pointee.ai_next
            let fd = socket(info.pointee.ai_family, info.pointee.ai_socktype | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0 else { lastError = String(cString: strerror(errno)); continue }
            let flags = fcntl(fd, F_GETFL)
            _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
            if Glibc.connect(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 || errno == EINPROGRESS,
               waitWritable(fd, timeoutMs: timeoutMs) {
                var soError: Int32 = 0
                var length = socklen_t(MemoryLayout<Int32>.size)
                getsockopt(fd, SOL_SOCKET, SO_ERROR, &soError, &length)
                if soError == 0 {
                    _ = fcntl(fd, F_SETFL, flags)
                    return GPSDSocket(fd: fd)
                }
                lastError = String(cString: strerror(soError))
            } else {
                lastError = errno == EINPROGRESS ? "timed out" : String(cString: strerror(errno))
            }
            Glibc.close(fd)
        }
        throw ConnectError(description: lastError)
    }

    private static func waitWritable(_ fd: Int32, timeoutMs: Int32) -> Bool {
        var p = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
        return poll(&p, 1, timeoutMs) == 1
    }

    public func send(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { return false }
            offset += n
        }
        return true
    }

    /// Reads until the peer closes, an error occurs or `close()` is called; `.idle` after every `idleEvery` of silence.
    public func inputs(idleEvery: Duration = .milliseconds(100)) -> AsyncStream<Input> {
        let (stream, continuation) = AsyncStream.makeStream(of: Input.self, bufferingPolicy: .bufferingNewest(256))
        let idleEveryMs = Int32(clamping: max(1, idleEvery.us / 1000))
        continuation.onTermination = { [self] _ in closed.store(true, ordering: .relaxed) }
        do {
            try ServiceThread.detach { [self] in read(every: idleEveryMs, into: continuation) }
        } catch {
            continuation.yield(.closed(reason: "\(error)"))
            continuation.finish()
        }
        return stream
    }

    private func read(every idleEveryMs: Int32, into continuation: AsyncStream<Input>.Continuation) {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !closed.load(ordering: .relaxed) {
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&p, 1, idleEveryMs)
            if ready == 0 { continuation.yield(.idle); continue }
            if ready < 0 {
                if errno == EINTR { continue }
                continuation.yield(.closed(reason: String(cString: strerror(errno)))); break
            }
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n > 0 {
                continuation.yield(.bytes(Array(buffer[0..<n])))
            } else if n == 0 {
                continuation.yield(.closed(reason: "gpsd closed the connection")); break
            } else if errno != EINTR && errno != EAGAIN {
                continuation.yield(.closed(reason: String(cString: strerror(errno)))); break
            }
        }
        continuation.finish()
    }

    public func close() {
        closed.store(true, ordering: .relaxed)
        shutdown(fd, Int32(SHUT_RDWR))
    }
}
