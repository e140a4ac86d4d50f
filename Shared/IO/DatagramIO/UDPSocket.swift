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

/// The one non-blocking IPv4 UDP socket. Bound (`init(binding:)`: the simulator, mavlink-link) it answers whoever
/// wrote to it; connected (`init(connectingTo:)`: drone-link) it talks to one peer from one ephemeral local port
/// for the whole run (a new socket per command changes the source port, which broke links behind NAT).
public final class UDPSocket: Sendable {
    public typealias Failure = SocketFailure

    public let descriptor: Int32
    /// The connected peer, nil for a bound socket.
    public let peer: UDPEndpoint?

    public init(binding endpoint: UDPEndpoint) throws(Failure) {
        let fd = try Self.open()
        var reuse: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        try Self.call("bind \(endpoint)", fd, endpoint, bind)
        descriptor = fd
        peer = nil
    }

    public init(connectingTo endpoint: UDPEndpoint) throws(Failure) {
        let fd = try Self.open()
        try Self.call("connect \(endpoint)", fd, endpoint, connect)
        descriptor = fd
        peer = endpoint
    }

    deinit { close(descriptor) }

    /// The next queued datagram, or nil when none is (or on an error other than those below, which is dropped).
    /// Larger than any datagram we expect (navdata's maximum is 4096) so an oversized one is seen as such.
    public func receive(maxBytes: Int = 8192) -> (bytes: [UInt8], from: UDPEndpoint)? {
        var buffer = [UInt8](repeating: 0, count: maxBytes)
        while true {
            var address = sockaddr_in()
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let count = buffer.withUnsafeMutableBytes { raw in
                withUnsafeMutablePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        recvfrom(descriptor, raw.baseAddress, raw.count, 0, $0, &length)
                    }
                }
            }
            if count >= 0 {
                let from = UDPEndpoint(address: UInt32(bigEndian: address.sin_addr.s_addr),
                                       port: UInt16(bigEndian: address.sin_port))
                return (Array(buffer.prefix(count)), from)
            }
            if errno == EINTR { continue }
            // A connected socket reports a pending ICMP "port unreachable" once; the socket stays usable.
            if errno == ECONNREFUSED { continue }
            return nil
        }
    }

    /// Sends one datagram to `endpoint`; returns errno on failure.
    @discardableResult
    public func send(_ bytes: [UInt8], to endpoint: UDPEndpoint) -> Int32? {
        var address = UDPSocket.socketAddress(endpoint)
        let sent = bytes.withUnsafeBytes { raw in
            withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(descriptor, raw.baseAddress, raw.count, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
        return sent == bytes.count ? nil : errno
    }

    /// Sends one datagram to the connected peer; returns errno on failure (ECONNREFUSED after an ICMP "port
    /// unreachable" is normal while the drone is not up yet).
    public func send(_ bytes: [UInt8]) -> Int32? {
        let sent = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, 0) }
        return sent == bytes.count ? nil : errno
    }

    private static func open() throws(Failure) -> Int32 {
        let type = Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        let fd = socket(AF_INET, type, 0)
        guard fd >= 0 else { throw Failure(call: "socket", errorNumber: errno) }
        return fd
    }

    /// bind() or connect() to `endpoint`; closes `fd` when it fails.
    private static func call(_ name: String, _ fd: Int32, _ endpoint: UDPEndpoint,
                             _ function: (Int32, UnsafePointer<sockaddr>, socklen_t) -> Int32) throws(Failure) {
        var address = socketAddress(endpoint)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                function(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            let error = errno
            close(fd)
            throw Failure(call: name, errorNumber: error)
        }
    }

    static func socketAddress(_ endpoint: UDPEndpoint) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = endpoint.port.bigEndian
        address.sin_addr.s_addr = endpoint.address.bigEndian
        return address
    }
}
