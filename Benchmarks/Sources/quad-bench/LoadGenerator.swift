import Logging
import QuadMQTT
import QuadProtocol
import Synchronization

/// `quad-bench loadgen`: a second publisher in its own process. Publishes DroneState telemetry (QoS 0, as
/// drone-link does) at a fixed rate for a duration or a count, optionally with a subscriber of its own so the
/// broker also fans the stream out. Prints one summary line.
struct LoadGenerator {
    var port: UInt16
    var drone: String
    var rate: Int
    var count: Int
    var subscribe: Bool

    func run() async throws {
        let publisher = try await BenchClient.connect(port: port, clientId: "bench-load-pub-\(drone)")
        var subscriber: MQTTClient?
        let received = Atomic<Int>(0)
        var consumer: Task<Void, Never>?
        var subscription: MQTTSubscription?
        let topic = "quad/\(drone)/telemetry/drone"
        if subscribe {
            let client = try await BenchClient.connect(port: port, clientId: "bench-load-sub-\(drone)")
            let stream = try client.subscribe(topic, qos: 0, bufferLimit: 65536)
            consumer = Task { for await _ in stream { received.add(1, ordering: .relaxed) } }
            subscriber = client
            subscription = stream
            try await Task.sleep(for: .milliseconds(300))
        }
        let startUs = BenchClock.wallClockUs()
        let (sent, failed, elapsedNs) = publish(publisher, topic: topic)
        try await Task.sleep(for: .seconds(1))  // let the subscriber drain
        let elapsedS = Double(elapsedNs) / 1e9
        print("loadgen sent=\(sent) failed=\(failed) received=\(received.load(ordering: .relaxed))"
              + " dropped=\(subscription?.droppedCount ?? 0) seconds=\(Units.fixed(elapsedS, 3))"
              + " rate=\(Int(Double(sent) / max(elapsedS, 1e-9))) start_us=\(startUs)")
        consumer?.cancel()
        subscriber?.shutdown()
        publisher.shutdown()
    }

    /// Paced by an absolute 1 ms clock: each tick catches up to `rate × elapsed`.
    private func publish(_ client: MQTTClient, topic: String) -> (sent: Int, failed: Int, elapsedNs: Int64) {
        var sent = 0
        var failed = 0
        let startNs = BenchClock.monotonicNs()
        var tickNs = startNs
        while sent + failed < count {
            let dueTotal = min(count, Int(Double(BenchClock.monotonicNs() - startNs) / 1e9 * Double(rate)) + 1)
            while sent + failed < dueTotal {
                let state = DroneState(
                    sequence: UInt32(truncatingIfNeeded: sent + failed), timestampUs: BenchClock.wallClockUs(),
                    navdataSequence: UInt32(truncatingIfNeeded: sent), stateBits: 0x0480_0C04, controlState: .landed,
                    batteryPercent: 90, altitudeM: 0, pitchDeg: 0, rollDeg: 0, yawDeg: 12, velocityXMps: 0,
                    velocityYMps: 0, velocityZMps: 0, magnetoHeadingDeg: 12)
                do {
                    try client.publish(topic: topic, payload: state.encoded(), qos: 0, retain: false)
                    sent += 1
                } catch {
                    failed += 1
                }
            }
            tickNs += 1_000_000
            BenchClock.sleep(untilNs: tickNs)
        }
        return (sent, failed, BenchClock.monotonicNs() - startNs)
    }

    /// Parses the summary line back (for the process that started the generator).
    static func summary(from output: String) -> [String: Double] {
        guard let line = output.split(separator: "\n").last(where: { $0.hasPrefix("loadgen ") }) else { return [:] }
        var values: [String: Double] = [:]
        for pair in line.split(separator: " ").dropFirst() {
            let parts = pair.split(separator: "=")
            if parts.count == 2, let value = Double(parts[1]) { values[String(parts[0])] = value }
        }
        return values
    }
}
