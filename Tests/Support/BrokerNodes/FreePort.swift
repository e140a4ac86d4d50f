import Foundation
import Synchronization

/// Ports this process has handed out: never handed out again. A port that is free now may still be someone's: a
/// broker killed for a restart on its own port, a port chosen to be unreachable — the services pointed at it keep
/// reconnecting, and a new broker there would take them in (another test's drone1 publishing to this test's bus).
private let handedOut = Mutex<Set<UInt16>>([])

/// A free port on 127.0.0.1 for TCP (`udp: false`) or UDP, found by binding port 0 and reading it back; never one
/// this process handed out before.
public func freeLoopbackPort(udp: Bool = false) throws -> UInt16 {
    for _ in 0..<64 {
        let port = try kernelFreePort(udp: udp)
        if handedOut.withLock({ $0.insert(port).inserted }) { return port }
    }
    throw BrokerNodeError.missing("a free port not handed out before")
}

private func kernelFreePort(udp: Bool) throws -> UInt16 {
    let fd = socket(AF_INET, Int32(udp ? SOCK_DGRAM.rawValue : SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw BrokerNodeError.missing("socket()") }
    defer { close(fd) }
    var addr = loopbackSocketAddress(port: 0)
    var len = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &addr) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { ptr in
            bind(fd, ptr, len) == 0 && getsockname(fd, ptr, &len) == 0
        }
    }
    guard bound else { throw BrokerNodeError.missing("bind to a free port") }
    return UInt16(bigEndian: addr.sin_port)
}

/// True when something accepts TCP connections on 127.0.0.1:port.
public func tcpPortAccepts(_ port: UInt16) -> Bool {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    var addr = loopbackSocketAddress(port: port)
    return withUnsafePointer(to: &addr) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
        }
    }
}

/// 127.0.0.1:port as a socket address.
public func loopbackSocketAddress(port: UInt16) -> sockaddr_in {
    var addr = sockaddr_in()
    addr.sin_family = sa_family_t(AF_INET)
    addr.sin_addr.s_addr = inet_addr("127.0.0.1")
    addr.sin_port = port.bigEndian
    return addr
}
