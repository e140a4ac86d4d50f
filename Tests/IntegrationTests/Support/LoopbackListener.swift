import BrokerNodes
import Foundation

/// A listening TCP socket on 127.0.0.1 at a port the kernel picks (bound to port 0: no window in which another
/// process could take it), for test relays, feeds and fake brokers (blocking sockets, served by threads).
enum LoopbackListener {
    static func open(backlog: Int32 = 16) throws -> (fd: Int32, port: UInt16) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestEnvironmentError.missing("socket()") }
        var addr = loopbackSocketAddress(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { p in
                bind(fd, p, length) == 0 && listen(fd, backlog) == 0 && getsockname(fd, p, &length) == 0
            }
        }
        guard ok else {
            close(fd)
            throw TestEnvironmentError.missing("a listening socket on 127.0.0.1")
        }
        return (fd, UInt16(bigEndian: addr.sin_port))
    }
}
