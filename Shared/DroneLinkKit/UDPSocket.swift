#if canImport(Glibc)
import Glibc
#endif

/// A non-blocking IPv4 UDP socket `connect()`ed to one peer from an ephemeral local port: one per drone port for
/// the whole run (a new socket per command changes the source port, which broke links behind NAT).
final class UDPSocket: Sendable {
    struct Failure: Error, Equatable, CustomStringConvertible {
        var call: String
        var errorNumber: Int32
        var description: String { "\(call) failed: \(String(cString: strerror(errorNumber)))" }
    }

    let descriptor: Int32
    let peer: String

    init(connectingTo address: in_addr, port: UInt16) throws(Failure) {
        let type = Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        let fd = socket(AF_INET, type, 0)
        guard fd >= 0 else { throw Failure(call: "socket", errorNumber: errno) }
        var peerAddress = sockaddr_in()
        peerAddress.sin_family = sa_family_t(AF_INET)
        peerAddress.sin_port = port.bigEndian
        peerAddress.sin_addr = address
        peer = "\(UDPSocket.text(address)):\(port)"
        let connected = withUnsafePointer(to: &peerAddress) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            let error = errno
            close(fd)
            throw Failure(call: "connect \(peer)", errorNumber: error)
        }
        descriptor = fd
    }

    deinit { close(descriptor) }

    /// Sends one datagram; returns errno on failure (ECONNREFUSED after an ICMP "port unreachable" is normal
    /// while the drone is not up yet).
    func send(_ bytes: [UInt8]) -> Int32? {
        let sent = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, 0) }
        return sent == bytes.count ? nil : errno
    }

    /// The next queued datagram, or nil when none is (or on an error such as ECONNREFUSED, which is dropped).
    func receive(into buffer: inout [UInt8]) -> [UInt8]? {
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count >= 0 { return Array(buffer.prefix(count)) }
            if errno == EINTR { continue }
            if errno == EAGAIN || errno == EWOULDBLOCK { return nil }
            // A pending ICMP error is reported once; the socket stays usable.
            if errno == ECONNREFUSED { continue }
            return nil
        }
    }

    /// The dotted-quad address, or nil when `text` is not one.
    static func address(parsing text: String) -> in_addr? {
        var address = in_addr()
        return inet_pton(AF_INET, text, &address) == 1 ? address : nil
    }

    static func text(_ address: in_addr) -> String {
        var copy = address
        var buffer = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
        guard inet_ntop(AF_INET, &copy, &buffer, socklen_t(buffer.count)) != nil else { return "?" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
