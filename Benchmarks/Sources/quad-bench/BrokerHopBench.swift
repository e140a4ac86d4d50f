import QuadMQTT
import Synchronization

/// The floor under benchmark 1: one publish → deliver hop through the same broker, measured the same way (two MQTT
/// clients in this process, QoS 1, a 64-byte payload, received where a service would read it: the subscription's
/// async sequence; same pauses between messages).
struct BrokerHopBench {
    let port: UInt16
    let messages: Int
    let pauseMs: ClosedRange<Int> = 10...40

    func run() async throws -> Distribution {
        let publisher = try await BenchClient.connect(port: port, clientId: "bench-hop-pub")
        let subscriber = try await BenchClient.connect(port: port, clientId: "bench-hop-sub")
        defer {
            publisher.shutdown()
            subscriber.shutdown()
        }
        let topic = "bench/hop"
        let arrivals = Mutex<[Int: Int64]>([:])
        let subscription = try subscriber.subscribe(topic, qos: 1)
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
            try publisher.publish(topic: topic, payload: payload, qos: 1, retain: false)
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
