import BrokerNodes
import Foundation
import Synchronization

/// A TCP relay on 127.0.0.1 in front of a port, which a test can cut like a radio link: `cut()` closes every
/// relayed connection and refuses new ones (accepted and closed at once) until `restore()`. Threads, blocking
/// sockets; stopped by `stop()`.
final class CuttableProxy: @unchecked Sendable {
    let port: UInt16
    private let targetPort: UInt16
    private let listener: Int32
    private let state = Mutex<(cut: Bool, stopped: Bool, sockets: [Int32])>((false, false, []))
    private let refused = Atomic<Int>(0)

    /// Connections refused while cut so far: one more after `cut()` means the client (a bridge) noticed the cut and
    /// is reconnecting — it no longer takes messages for the link as sent.
    var refusedConnections: Int { refused.load(ordering: .sequentiallyConsistent) }

    init(to targetPort: UInt16) throws {
        self.targetPort = targetPort
        (listener, port) = try LoopbackListener.open()
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    /// Drops every relayed connection and refuses new ones.
    func cut() {
        let sockets = state.withLock { s -> [Int32] in
            s.cut = true
            defer { s.sockets = [] }
            return s.sockets
        }
        for fd in sockets { shutdown(fd, Int32(SHUT_RDWR)) }
    }

    func restore() { state.withLock { $0.cut = false } }

    func stop() {
        cut()
        state.withLock { $0.stopped = true }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    deinit { stop() }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if state.withLock({ $0.stopped }) { return }
                continue
            }
            let upstream = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var addr = loopbackSocketAddress(port: targetPort)
            let connected = withUnsafePointer(to: &addr) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(upstream, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
                }
            }
            let admitted = connected && state.withLock { s -> Bool in
                guard !s.cut, !s.stopped else { return false }
                s.sockets += [client, upstream]
                return true
            }
            guard admitted else {
                refused.add(1, ordering: .sequentiallyConsistent)
                close(client)
                close(upstream)
                continue
            }
            Thread.detachNewThread { Self.pump(from: client, to: upstream) }
            Thread.detachNewThread { Self.pump(from: upstream, to: client) }
        }
    }

    /// Copies until either side ends, then shuts both down (the other pump ends too and closes its source).
    private static func pump(from source: Int32, to destination: Int32) {
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        loop: while true {
            let n = buffer.withUnsafeMutableBytes { read(source, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            var offset = 0
            while offset < n {
                // send(MSG_NOSIGNAL): a peer gone mid-write must not SIGPIPE the test process.
                let written = buffer.withUnsafeBytes {
                    send(destination, $0.baseAddress! + offset, n - offset, Int32(MSG_NOSIGNAL))
                }
                if written <= 0 { break loop }
                offset += written
            }
        }
        shutdown(source, Int32(SHUT_RDWR))
        shutdown(destination, Int32(SHUT_RDWR))
        close(source)
    }
}
