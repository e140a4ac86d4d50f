#if canImport(Glibc)
import Glibc
#endif

/// Why a TCP connection to the broker fails right now (libmosquitto's background reconnects do not say): DNS,
/// the connect's errno, or silence within the timeout. Blocking (DNS, poll): call it off the network thread.
enum BrokerProbe {
    /// nil when a TCP connection could be opened.
    static func failure(host: String, port: Int32, timeoutMs: Int32) -> String? {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let rc = getaddrinfo(host, String(port), &hints, &list)
        guard rc == 0, let list else { return "DNS lookup of \(host) failed: \(String(cString: gai_strerror(rc)))" }
        defer { freeaddrinfo(list) }
        var reason = "no address for \(host)"
        var entry: UnsafeMutablePointer<addrinfo>? = list
        while let address = entry?.pointee {
            entry = address.ai_next
            let fd = socket(address.ai_family, address.ai_socktype | Int32(
                SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue),
                            address.ai_protocol)
            guard fd >= 0 else { reason = String(cString: strerror(errno)); continue }
            defer { close(fd) }
            if connect(fd, address.ai_addr, address.ai_addrlen) == 0 { return nil }
            guard errno == EINPROGRESS else { reason = String(cString: strerror(errno)); continue }
            var waiting = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            guard poll(&waiting, 1, timeoutMs) > 0 else {
                reason = "no answer within \(timeoutMs) ms (host down or packets dropped)"
                continue
            }
            var error: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            _ = getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length)
            if error == 0 { return nil }
            reason = String(cString: strerror(error))
        }
        return reason
    }
}
