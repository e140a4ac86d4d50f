#if canImport(Glibc)
import Glibc
#endif
import NetworkEndpoint

/// A system call that failed, with errno.
public struct SocketFailure: Error, Equatable, CustomStringConvertible {
    public var call: String
    public var errorNumber: Int32
    public init(call: String, errorNumber: Int32) {
        self.call = call
        self.errorNumber = errorNumber
    }
    public var description: String { "\(call) failed: \(String(cString: strerror(errorNumber)))" }
}

/// A bound, non-blocking IPv4 UDP socket that answers whoever wrote to it (simulator, mavlink-link).
public final class BoundUDPSocket: @unchecked Sendable {
    public typealias Failure = SocketFailure

    public let descriptor: Int32

    public init(binding endpoint: UDPEndpoint) throws(Failure) {
        let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(call: "socket", errorNumber: errno) }
        var reuse: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = BoundUDPSocket.socketAddress(endpoint)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else {
            let error = errno
            close(fd)
            throw Failure(call: "bind \(endpoint)", errorNumber: error)
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        descriptor = fd
    }

    deinit { close(descriptor) }

    /// The next waiting datagram, or nil when none is queued.
    public func receive() -> (bytes: [UInt8], from: UDPEndpoint)? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let count = buffer.withUnsafeMutableBytes { raw in
            withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    recvfrom(descriptor, raw.baseAddress, raw.count, 0, $0, &length)
                }
            }
        }
        guard count >= 0 else { return nil }
        let from = UDPEndpoint(
            address: UInt32(bigEndian: address.sin_addr.s_addr), port: UInt16(bigEndian: address.sin_port)
        )
        return (Array(buffer.prefix(count)), from)
    }

    /// Sends one datagram; returns errno on failure.
    @discardableResult
    public func send(_ bytes: [UInt8], to endpoint: UDPEndpoint) -> Int32? {
        var address = BoundUDPSocket.socketAddress(endpoint)
        let sent = bytes.withUnsafeBytes { raw in
            withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(descriptor, raw.baseAddress, raw.count, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
        return sent == bytes.count ? nil : errno
    }

    static func socketAddress(_ endpoint: UDPEndpoint) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = endpoint.port.bigEndian
        address.sin_addr.s_addr = endpoint.address.bigEndian
        return address
    }
}
