#if canImport(Glibc)
import Glibc
#endif
import DroneSimulation

/// A non-blocking UDP socket bound to 127.0.0.1 on a free port: one of the fake drone's two ports.
final class DroneSocket: @unchecked Sendable {
    let descriptor: Int32
    let port: UInt16

    init() throws(LoopbackPort.Failure) {
        let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        guard fd >= 0 else { throw LoopbackPort.Failure(call: "socket") }
        var address = LoopbackPort.loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self,
                capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard ok else {
            close(fd)
            throw LoopbackPort.Failure(call: "bind")
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        descriptor = fd
        port = UInt16(bigEndian: address.sin_port)
    }

    deinit { close(descriptor) }

    /// The next queued datagram and its sender, or nil.
    func receive(into buffer: inout [UInt8]) -> (bytes: [UInt8], from: UDPEndpoint)? {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let count = buffer.withUnsafeMutableBytes { raw in
            withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self,
                    capacity: 1) { recvfrom(descriptor, raw.baseAddress, raw.count, 0, $0, &length) }
            }
        }
        guard count >= 0 else { return nil }
        let from = UDPEndpoint(address: UInt32(bigEndian: address.sin_addr.s_addr),
            port: UInt16(bigEndian: address.sin_port))
        return (Array(buffer.prefix(count)), from)
    }

    func send(_ bytes: [UInt8], to endpoint: UDPEndpoint) {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = endpoint.address.bigEndian
        address.sin_port = endpoint.port.bigEndian
        _ = bytes.withUnsafeBytes { raw in
            withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(descriptor, raw.baseAddress, raw.count, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
    }
}
