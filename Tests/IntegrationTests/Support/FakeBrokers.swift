import BrokerNodes
import Foundation

/// A broker that never answers: a listener whose accept queue is full, so the kernel drops further SYNs and a
/// connect() there blocks (as to a host that went away). libmosquitto's blocking reconnect hangs on it.
final class SilentBroker: @unchecked Sendable {
    let port: UInt16
    private let listener: Int32
    private var fillers: [Int32] = []
    var address: String { "127.0.0.1:\(port)" }

    init() throws {
        (listener, port) = try LoopbackListener.open(backlog: 0)
        for _ in 0..<3 {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
            var addr = loopbackSocketAddress(port: port)
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

/// A broker that speaks only MQTT 3.1.1 (as RabbitMQ and NATS do): answers an MQTT 5 CONNECT with a 3.1.1 CONNACK
/// refusing the protocol version (return code 1). With `accepting311`, a 3.1.1 CONNECT is accepted and the session
/// served just enough (SUBACK, PUBACK, PINGRESP) for a client to run; `publishedTopics` records what came in.
/// `subackCode` is what every SUBACK grants: 0x01 (QoS 1), or 0x80 to refuse every subscription (RabbitMQ's
/// answer to `$share/…`, or an ACL denial).
final class ProtocolRefusingBroker: @unchecked Sendable {
    let port: UInt16
    private let listener: Int32
    private let log = TopicLog()
    var address: String { "127.0.0.1:\(port)" }
    var publishedTopics: [String] { log.topics }

    private final class TopicLog: @unchecked Sendable {
        private let lock = NSLock()
        private var list: [String] = []
        var topics: [String] { lock.withLock { list } }
        func append(_ topic: String) { lock.withLock { list.append(topic) } }
    }

    init(accepting311: Bool = false, subackCode: UInt8 = 0x01) throws {
        (listener, port) = try LoopbackListener.open()
        let (fd, log) = (listener, log)
        Thread.detachNewThread {
            while true {
                let client = accept(fd, nil, nil)
                guard client >= 0 else { return }
                Thread.detachNewThread {
                    Self.serve(client, accepting311: accepting311, subackCode: subackCode, log: log)
                }
            }
        }
    }

    private static func serve(_ client: Int32, accepting311: Bool, subackCode: UInt8, log: TopicLog) {
        defer { close(client) }
        guard let connect = Self.readPacket(client), connect.type == 0x10, connect.body.count > 6 else { return }
        let level = connect.body[6]  // after the length-prefixed "MQTT"
        guard accepting311, level == 4 else {
            send(client, [0x20, 0x02, 0x00, 0x01])
            usleep(100_000)
            return
        }
        send(client, [0x20, 0x02, 0x00, 0x00])
        while let packet = Self.readPacket(client) {
            let body = packet.body
            switch packet.type & 0xF0 {
            case 0x80 where body.count >= 2:  // SUBSCRIBE: answer for one filter
                send(client, [0x90, 0x03, body[0], body[1], subackCode])
            case 0x30 where body.count >= 2:  // PUBLISH
                let topicLength = Int(body[0]) << 8 | Int(body[1])
                guard body.count >= 2 + topicLength else { return }
                let topic = String(decoding: body[2..<2 + topicLength], as: UTF8.self)
                log.append(topic)
                if packet.type & 0x06 != 0, body.count >= 4 + topicLength {
                    send(client, [0x40, 0x02, body[2 + topicLength], body[3 + topicLength]])
                }
            case 0xC0: send(client, [0xD0, 0x00])
            case 0xE0: return
            default: break
            }
        }
    }

    private static func send(_ fd: Int32, _ bytes: [UInt8]) {
        // MSG_NOSIGNAL: a client that already hung up must not SIGPIPE the test process.
        _ = Glibc.send(fd, bytes, bytes.count, Int32(MSG_NOSIGNAL))
    }

    private static func readPacket(_ fd: Int32) -> (type: UInt8, body: [UInt8])? {
        func byte() -> UInt8? {
            var b: UInt8 = 0
            return read(fd, &b, 1) == 1 ? b : nil
        }
        guard let type = byte() else { return nil }
        var length = 0, shift = 0
        while true {
            guard let b = byte(), shift <= 21 else { return nil }
            length |= Int(b & 0x7F) << shift
            shift += 7
            if b & 0x80 == 0 { break }
        }
        var body = [UInt8](repeating: 0, count: length)
        var got = 0
        while got < length {
            let n = body.withUnsafeMutableBytes { read(fd, $0.baseAddress! + got, length - got) }
            guard n > 0 else { return nil }
            got += n
        }
        return (type, body)
    }

    deinit {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }
}
