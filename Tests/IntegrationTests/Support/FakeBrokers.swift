import Foundation

/// Listening TCP socket on 127.0.0.1, closed on deinit.
private func loopbackListener(backlog: Int32) throws -> (fd: Int32, port: UInt16) {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw TestEnvironmentError.missing("socket()") }
    var addr = sockaddr_in()
    addr.sin_family = sa_family_t(AF_INET)
    addr.sin_addr.s_addr = inet_addr("127.0.0.1")
    var len = socklen_t(MemoryLayout<sockaddr_in>.size)
    let ok = withUnsafeMutablePointer(to: &addr) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { p in
            bind(fd, p, len) == 0 && listen(fd, backlog) == 0 && getsockname(fd, p, &len) == 0
        }
    }
    guard ok else { close(fd); throw TestEnvironmentError.missing("listen on 127.0.0.1") }
    return (fd, UInt16(bigEndian: addr.sin_port))
}

/// A broker that never answers: a listener whose accept queue is full, so the kernel drops further SYNs and a
/// connect() there blocks (as to a host that went away). libmosquitto's blocking reconnect hangs on it.
final class SilentBroker: @unchecked Sendable {
    let port: UInt16
    private let listener: Int32
    private var fillers: [Int32] = []
    var address: String { "127.0.0.1:\(port)" }

    init() throws {
        (listener, port) = try loopbackListener(backlog: 0)
        for _ in 0..<3 {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
            var addr = sockaddr_in()
            addr.sin_family = sa_family_t(AF_INET)
            addr.sin_addr.s_addr = inet_addr("127.0.0.1")
            addr.sin_port = port.bigEndian
            _ = withUnsafePointer(to: &addr) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            fillers.append(fd)
        }
        usleep(200_000)
    }

    deinit {
        fillers.forEach { close($0) }
        close(listener)
    }
}

/// A broker that speaks only MQTT 3.1.1: answers every CONNECT with a 3.1.1 CONNACK refusing the protocol version
/// (return code 1), as a 3.1.1-only broker answers an MQTT 5 client.
final class ProtocolRefusingBroker: @unchecked Sendable {
    let port: UInt16
    private let listener: Int32
    var address: String { "127.0.0.1:\(port)" }

    init() throws {
        (listener, port) = try loopbackListener(backlog: 16)
        let fd = listener
        Thread.detachNewThread {
            while true {
                let client = accept(fd, nil, nil)
                guard client >= 0 else { return }
                var buffer = [UInt8](repeating: 0, count: 512)
                _ = read(client, &buffer, buffer.count)
                let connack: [UInt8] = [0x20, 0x02, 0x00, 0x01]
                _ = write(client, connack, connack.count)
                usleep(100_000)
                close(client)
            }
        }
    }

    deinit {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }
}
