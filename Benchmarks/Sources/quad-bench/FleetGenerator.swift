import QuadMQTT
import QuadProtocol

/// `quad-bench fleetgen`: N synthetic drones' traffic from one process. Each `--topic PATH=HZ=HEX` is a topic below
/// `quad/<id>/` with its per-drone rate and a payload captured from a real drone of the fleet benchmark (so sizes and
/// codecs are real); QoS and retain come from the topic table (`status/…`: QoS 1, retained, as presence is). Drone
/// ids are `<prefix>-<i>`. Messages of a topic go out round-robin over the drones, paced by an absolute 1 ms clock,
/// so each drone gets its rate and the drones are out of phase. One MQTT connection carries all drones (a real
/// fleet has four per drone: the broker's per-message work is the same, its per-connection work is not measured).
/// Prints one summary line; `recorded_sent` counts what a telemetry-logger records (`telemetry/…`, `status/…`).
/// `--port` takes one port, or a cluster's node ports in the order to try them (`--port 5001,5002,5000`).
struct FleetGenerator {
    struct Stream: Sendable {
        var path: String
        var rateHz: Double
        var payload: [UInt8]
    }

    var ports: [UInt16]
    var prefix: String
    var drones: Int
    var seconds: Double
    var streams: [Stream]

    /// QoS and retain of a path below `quad/<id>/`, from the topic table.
    static func delivery(path: String) -> (qos: Int32, retain: Bool) {
        if path.hasPrefix("status/") { return (1, true) }
        let specs: [(String, QoS, Bool)] = [
            (Topics.droneState.path, Topics.droneState.qos, Topics.droneState.retain),
            (Topics.position.path, Topics.position.qos, Topics.position.retain),
            (Topics.navigation.path, Topics.navigation.qos, Topics.navigation.retain),
            (Topics.controllerState.path, Topics.controllerState.qos, Topics.controllerState.retain),
            (Topics.linkStatus.path, Topics.linkStatus.qos, Topics.linkStatus.retain),
            (Topics.flightCommand.path, Topics.flightCommand.qos, Topics.flightCommand.retain),
        ]
        guard let spec = specs.first(where: { $0.0 == path }) else { return (0, false) }
        return (spec.1.rawValue, spec.2)
    }

    /// What `telemetry-logger record` subscribes to, of what the generator sends.
    static func isRecorded(path: String) -> Bool { path.hasPrefix("telemetry/") || path.hasPrefix("status/") }

    func run() async throws {
        let client = try await BenchClient.connect(ports: ports, clientId: "bench-fleetgen-\(prefix)")
        let topics = streams.map { stream in (0..<drones).map { "quad/\(prefix)-\($0)/\(stream.path)" } }
        let delivery = streams.map { Self.delivery(path: $0.path) }
        var sent = [Int](repeating: 0, count: streams.count)
        var failed = [Int](repeating: 0, count: streams.count)
        let startUs = BenchClock.wallClockUs()
        let startNs = BenchClock.monotonicNs()
        let endNs = startNs + Int64(seconds * 1e9)
        var tickNs = startNs
        while true {
            let nowNs = min(BenchClock.monotonicNs(), endNs)
            let elapsedS = Double(nowNs - startNs) / 1e9
            for (index, stream) in streams.enumerated() {
                let due = Int(elapsedS * stream.rateHz * Double(drones))
                while sent[index] < due {
                    let drone = sent[index] % drones
                    do {
                        try client.publish(topic: topics[index][drone], payload: stream.payload,
                                           qos: delivery[index].qos, retain: delivery[index].retain)
                    } catch {
                        failed[index] += 1
                    }
                    sent[index] += 1
                }
            }
            if nowNs >= endNs { break }
            tickNs += 1_000_000
            BenchClock.sleep(untilNs: tickNs)
        }
        let elapsedS = Double(BenchClock.monotonicNs() - startNs) / 1e9
        // Clear what it left retained (presence, link, controller), so the next step's logger is not handed every
        // earlier synthetic drone at subscribe time. Subscribers get these as empty messages: not counted as sent,
        // and the bench's count skips empty records.
        for index in streams.indices where delivery[index].retain {
            for topic in topics[index] { _ = try? client.publish(topic: topic, payload: [], qos: 1, retain: true) }
        }
        // QoS 1 messages still queued in libmosquitto go out before the disconnect; a cluster node may take longer
        // to acknowledge them all (the QoS 0 ones went out before the last acknowledged QoS 1: one socket, in order).
        try await Task.sleep(for: .seconds(2))
        _ = await BenchClient.waitUntil(timeoutS: 10) { client.pendingAcknowledgements == 0 }
        let total = sent.reduce(0, +)
        let delivered = zip(sent, failed).map { $0 - $1 }
        let recorded = zip(streams, delivered).filter { Self.isRecorded(path: $0.0.path) }.reduce(0) { $0 + $1.1 }
        print("fleetgen sent=\(total) recorded_sent=\(recorded) failed=\(failed.reduce(0, +))"
              + " seconds=\(Units.fixed(elapsedS, 3)) rate=\(Int(Double(total) / max(elapsedS, 1e-9))) "
              + "start_us=\(startUs)")
        client.shutdown()
    }

    static func parse(_ arguments: ArraySlice<String>) throws -> FleetGenerator {
        var generator = FleetGenerator(ports: [1883], prefix: "gen", drones: 1, seconds: 10, streams: [])
        var rest = arguments
        while let flag = rest.popFirst() {
            guard let value = rest.popFirst() else { throw BenchOptions.Invalid(description: "\(flag) needs a value") }
            switch flag {
            case "--port": generator.ports = value.split(separator: ",").map { UInt16($0) ?? 0 }
            case "--prefix": generator.prefix = value
            case "--drones": generator.drones = max(1, Int(value) ?? 1)
            case "--seconds": generator.seconds = max(0.1, Double(value) ?? 1)
            case "--topic":
                let parts = value.split(separator: "=").map(String.init)
                guard parts.count == 3, let rate = Double(parts[1]), let payload = Hex.decode(parts[2]) else {
                    throw BenchOptions.Invalid(description: "--topic \(value): expected PATH=HZ=HEX")
                }
                generator.streams.append(Stream(path: parts[0], rateHz: rate, payload: payload))
            default: throw BenchOptions.Invalid(description: "unknown flag \(flag)")
            }
        }
        guard !generator.ports.isEmpty, !generator.ports.contains(0) else {
            throw BenchOptions.Invalid(description: "--port: expected PORT or PORT,PORT,…")
        }
        return generator
    }

    /// The `--topic` arguments for `streams`.
    static func arguments(_ streams: [Stream]) -> [String] {
        streams.flatMap { ["--topic", "\($0.path)=\($0.rateHz)=\(Hex.encode($0.payload))"] }
    }
}

/// Payloads on the generator's command line.
enum Hex {
    static func encode(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes { out += [digits[Int(byte >> 4)], digits[Int(byte & 0xF)]] }
        return String(decoding: out, as: UTF8.self)
    }

    static func decode(_ text: String) -> [UInt8]? {
        let chars = Array(text.utf8)
        guard chars.count % 2 == 0 else { return nil }
        func nibble(_ c: UInt8) -> UInt8? {
            switch c {
            case 0x30...0x39: c - 0x30
            case 0x61...0x66: c - 0x61 + 10
            default: nil
            }
        }
        var out: [UInt8] = []
        var index = 0
        while index < chars.count {
            guard let high = nibble(chars[index]), let low = nibble(chars[index + 1]) else { return nil }
            out.append(high << 4 | low)
            index += 2
        }
        return out
    }
}
