import BrokerNodes
import Foundation

/// A listening TCP socket on 127.0.0.1 at a free port, for test relays and feeds (blocking, served by threads).
enum LoopbackListener {
    static func open() throws -> (fd: Int32, port: UInt16) {
        let port = try freeLoopbackPort()
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var addr = address(port)
        let bound = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(fd, 16) == 0 else {
            close(fd)
            throw TestEnvironmentError.missing("a listening socket on 127.0.0.1:\(port)")
        }
        return (fd, port)
    }

    static func address(_ port: UInt16) -> sockaddr_in {
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        addr.sin_port = port.bigEndian
        return addr
    }
}
