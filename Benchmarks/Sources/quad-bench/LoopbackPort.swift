#if canImport(Glibc)
import Glibc
#endif

/// The bench's own UDP sockets' address and error (free ports and the TCP probe: BrokerNodes' `freeLoopbackPort`,
/// `tcpPortAccepts`, shared with the integration tests).
enum LoopbackPort {
    struct Failure: Error, CustomStringConvertible {
        var call: String
        var description: String { "\(call) failed: \(String(cString: strerror(errno)))" }
    }

    static func loopback(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        address.sin_port = port.bigEndian
        return address
    }
}
