import QuadMQTT
import Synchronization

/// The floor under benchmark 1: one publish → deliver hop through the same broker, measured the same way (two MQTT
/// clients in this process, QoS 1, a 64-byte payload, received where a service would read it: the subscription's
/// async sequence; same pauses between messages).
/// In the field layout the publisher is on the ground broker and the subscriber on the board's, so the hop crosses the
/// bridge (on a bridged topic, before the services start).
struct BrokerHopBench {
    let port: UInt16
    let messages: Int
    let pauseMs: ClosedRange<Int> = 10...40
    var subscriberPort: UInt16?
    var publisherLogin: BrokerLogin?
    var subscriberLogin: BrokerLogin?
    var topic = "bench/hop"
    /// QoS of the publish and the subscription (the bridge's `topic` line decides the QoS across it).
    var qos: Int32 = 1

    func run() async throws -> Distribution {
        let publisher = try await BenchClient.connect(port: port, clientId: "bench-hop-pub", login: publisherLogin)
        let subscriber = try await BenchClient.connect(port: subscriberPort ?? port, clientId: "bench-hop-sub",
                                                       login: subscriberLogin)
        defer {
            publisher.shutdown()
            subscriber.shutdown()
        }
        let arrivals = Mutex<[Int: Int64]>([:])
        let subscription = try subscriber.subscribe(topic, qos: qos)
        let consumer = Task {
            for await message in subscription {
                let arrivedNs = BenchClock.monotonicNs()
                let index = message.payload.prefix(8).enumerated().reduce(0) { $0 | Int($1.element) << (8 * $1.offset) }
                arrivals.withLock { $0[index] = arrivedNs }
            }
        }
        defer { consumer.cancel() }
        try await Task.sleep(for: .milliseconds(300))  // SUBACK
        var samples: [Int64] = []
        var generator = SystemRandomNumberGenerator()
        for index in 0..<messages {
            var payload = [UInt8](repeating: 0, count: 64)
            for byte in 0..<8 { payload[byte] = UInt8(truncatingIfNeeded: index >> (8 * byte)) }
            let startNs = BenchClock.monotonicNs()
            try publisher.publish(topic: topic, payload: payload, qos: qos, retain: false)
            var arrived: Int64?
            while arrived == nil, BenchClock.monotonicNs() - startNs < 1_000_000_000 {
                try await Task.sleep(for: .microseconds(500))
                arrived = arrivals.withLock { $0[index] }
            }
            if let arrived { samples.append(arrived - startNs) }
            try await Task.sleep(for: .milliseconds(Int.random(in: pauseMs, using: &generator)))
        }
        return Distribution(samples)
    }
}
