import Clocks
import Foundation
import QuadProtocol
import Randomness

/// Invalid payloads for every topic a drone-side service subscribes to, reproducible from a seed: random bytes,
/// truncated, mutated, wrong-version, wrong-type, NaN-carrying and over-long binary messages, and text.
/// Each candidate is checked against the receiving decoder first: one that decodes would be a legitimate message
/// (a valid FlightCommand steers the drone), so it is never sent.
struct FuzzCorpus: Sendable {
    /// One topic: where it is below `quad/<id>/`, a valid example, and the decoder its subscribers use.
    struct Lane: Sendable {
        let path: String
        let sample: [UInt8]
        let decode: @Sendable ([UInt8]) throws -> Void
        /// Offsets where a NaN (f32 when `width` 4, f64 when 8) makes the decoder say `notFinite`.
        var nanSpots: [(offset: Int, width: Int)] = []
    }

    let lanes: [Lane]
    /// (lane index, payload), in sending order.
    let messages: [(lane: Int, payload: [UInt8])]
    /// Candidates that decoded and were left out.
    let skippedValid: Int

    static func lanes(fixtures: URL) throws -> [Lane] {
        func fixture(_ name: String) throws -> [UInt8] {
            let text = try String(contentsOf: fixtures.appendingPathComponent("\(name).hex"), encoding: .utf8)
            return text.split(separator: "\n").flatMap { line in
                (line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
                    .split(separator: " ").compactMap { UInt8($0, radix: 16) }
            }
        }
        let status = ServiceStatus(state: .online, service: "fuzzer", version: "1.0.0", startedAt: 1.7e9, pid: 42)
        var lanes = [
            Lane(path: "target",
                sample: try fixture("target")) { _ = try InboundTarget.decode(payload: $0, receivedAt: .init(us: 0)) },
            Lane(path: "command",
                sample: try fixture("command")) {
                    _ = try InboundCommand.decode(payload: $0, receivedAt: .init(us: 0))
                },
            Lane(path: "pilot/claim", sample: try fixture("control-claim")) { _ = try ControlClaim(decoding: $0) },
            Lane(path: "flight/command", sample: try fixture("flight-command")) { _ = try FlightCommand(decoding: $0) },
            Lane(path: "telemetry/drone", sample: try fixture("drone-state")) { _ = try DroneState(decoding: $0) },
            Lane(path: "telemetry/position", sample: try fixture("position-fix")) { _ = try PositionFix(decoding: $0) },
            Lane(path: "telemetry/navigation", sample: try fixture("navigation-solution")) {
                _ = try NavigationSolution(decoding: $0)
            },
            Lane(path: "telemetry/controller", sample: try fixture("controller-state")) {
                _ = try ControllerState(decoding: $0)
            },
            Lane(path: "status/fuzzer", sample: status.encodedJSON()) { _ = try ServiceStatus(json: $0) },
            Lane(path: "ground/beacon", sample: try fixture("ground-beacon")) { _ = try GroundBeacon(decoding: $0) },
        ]
        for i in lanes.indices { lanes[i].nanSpots = nanSpots(lanes[i]) }
        return lanes
    }

    static func nanSpots(_ lane: Lane) -> [(offset: Int, width: Int)] {
        let nans: [(width: Int, bytes: [UInt8])] = [(4, [0x00, 0x00, 0xC0, 0x7F]), (8, [0, 0, 0, 0, 0, 0, 0xF8, 0x7F])]
        var spots: [(offset: Int, width: Int)] = []
        for (width, bytes) in nans where lane.sample.count >= 17 + width {
            for offset in 17...(lane.sample.count - width) {
                var candidate = lane.sample
                candidate.replaceSubrange(offset..<offset + width, with: bytes)
                do { try lane.decode(candidate) } catch let error as WireError {
                    if case .notFinite = error { spots.append((offset, width)) }
                } catch {}
            }
        }
        return spots
    }

    init(seed: UInt64, count: Int, fixtures: URL) throws {
        let lanes = try Self.lanes(fixtures: fixtures)
        var random = SplitMix64(seed: seed)
        var messages: [(lane: Int, payload: [UInt8])] = []
        messages.reserveCapacity(count)
        var skipped = 0
        while messages.count < count {
            let index = Int.random(in: lanes.indices, using: &random)
            let candidate = Self.candidate(for: lanes[index], others: lanes, using: &random)
            if (try? lanes[index].decode(candidate)) != nil {
                skipped += 1
            } else {
                messages.append((index, candidate))
            }
        }
        self.lanes = lanes
        self.messages = messages
        skippedValid = skipped
    }

    static let texts = [
        #"{"lat":NaN,"lon":13.3}"#, #"{"lat":"52.5","lon":13.3}"#, #"{"lat":52.5}"#, #"{"lat":1e999,"lon":0}"#,
        #"{"lat":52.5,"lon":13.3,"altitude":3}"#, #"{"lat":52.5,"lat":52.6,"lon":13.3}"#, #"{"lat":95,"lon":13.3}"#,
        #"{"state":"online"}"#, #"{"state":"sleeping","service":"x","version":"1","started_at":1,"pid":1}"#,
        "takeoff now", "LAND", "land!", "", " ", "null", "[]", "{", "}", "\u{0}", "hover\u{0}", "flat_trim",
        "Emergency",
    ]

    static func candidate(for lane: Lane, others: [Lane], using random: inout SplitMix64) -> [UInt8] {
        var bytes = lane.sample
        switch Int.random(in: 0..<8, using: &random) {
        case 0:  // random bytes, half of them behind a valid magic and major so they reach the body checks
            bytes = (0..<Int.random(in: 0...96, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
            if Bool.random(using: &random) { bytes = [0xFF, 0x51, 0x01, 0x00] + bytes }
        case 1:  // truncated
            bytes = Array(bytes.prefix(Int.random(in: 0..<bytes.count, using: &random)))
        case 2:  // a few bytes changed
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                bytes[Int.random(in: bytes.indices, using: &random)] = UInt8.random(in: 0...255, using: &random)
            }
        case 3:  // another format major
            if bytes.count > 2 { bytes[2] = [0, 2, 3, 0x7F, 0xFF][Int.random(in: 0..<5, using: &random)] }
        case 4:  // a valid message of another type (or the status JSON)
            bytes = others[Int.random(in: others.indices, using: &random)].sample
        case 5:  // NaN where a float lives
            if let spot = lane.nanSpots.randomElement(using: &random) {
                let nan: [UInt8] = spot.width == 4 ? [0x00, 0x00, 0xC0, 0x7F] : [0, 0, 0, 0, 0, 0, 0xF8, 0x7F]
                bytes.replaceSubrange(spot.offset..<spot.offset + spot.width, with: nan)
            } else {
                bytes[Int.random(in: bytes.indices, using: &random)] ^= 0xA5
            }
        case 6:  // text: JSON that is wrong in one way, words that are not commands, invalid UTF-8
            switch Int.random(in: 0..<3, using: &random) {
            case 0: bytes = Array(texts[Int.random(in: texts.indices, using: &random)].utf8)
            case 1:
                bytes = (0..<Int.random(in: 1...40,
                    using: &random)).map { _ in UInt8.random(in: 0x20...0x7E, using: &random) }
            default: bytes = [0xC3, 0x28] + Array("takeoff".utf8)
            }
        default:  // trailing bytes after a complete message of the current minor
            bytes += (0..<Int.random(in: 1...8, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
        }
        return bytes
    }
}
