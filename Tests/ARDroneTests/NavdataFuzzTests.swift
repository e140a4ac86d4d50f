import ARDrone
import Randomness
import Testing

/// Random and mutated datagrams through `NavdataPacket.decode`: it must never trap, every failure is a
/// `NavdataError` (typed throws), and whatever decodes re-encodes stably.
@Suite struct NavdataFuzzTests {
    static let iterations = 24_000

    @Test func randomAndMutatedPacketsNeverTrap() throws {
        let fixtures = try ["bootstrap.hex", "demo-default.hex", "demo-magneto-gps.hex"].map(Fixture.bytes)
        var random = SplitMix64(seed: 0xA5D2_0001)
        var outcomes: [String: Int] = [:]
        for iteration in 0..<Self.iterations {
            let bytes = Self.candidate(iteration, fixtures: fixtures, using: &random)
            do {
                let packet = try NavdataPacket.decode(bytes)
                outcomes["ok", default: 0] += 1
                // NaN fields make `==` useless, so compare bytes: encoding is a fixpoint after one pass.
                let encoded = packet.encoded()
                let again = try NavdataPacket.decode(encoded)
                #expect(again.encoded() == encoded)
            } catch {
                outcomes[Self.kind(of: error), default: 0] += 1
            }
        }
        #expect(outcomes.values.reduce(0, +) == Self.iterations)
        // The mutations reach past the header checks into option walking and checksum verification.
        for kind in ["ok", "tooShort", "tooLong", "badMagic", "optionTooSmall", "optionOverruns",
                     "checksumMismatch", "missingChecksum", "optionShorterThanLayout", "truncatedOptionHeader"] {
            #expect(outcomes[kind, default: 0] > 0, "never saw \(kind): \(outcomes)")
        }
    }

    /// Cycles through the kinds of input so each gets about a sixth of the iterations.
    static func candidate(_ iteration: Int, fixtures: [[UInt8]], using random: inout SplitMix64) -> [UInt8] {
        var bytes = fixtures[Int.random(in: 0..<fixtures.count, using: &random)]
        switch iteration % 6 {
        case 0:
            return random.bytes(Int.random(in: 0...4200, using: &random))
        case 1:
            // Valid magic, random rest: exercises the option walk on garbage.
            bytes = [0x88, 0x77, 0x66, 0x55] + random.bytes(Int.random(in: 20...600, using: &random))
            fixChecksum(&bytes, probability: 0.5, using: &random)
        case 2:
            for _ in 0..<Int.random(in: 1...8, using: &random) {
                let index = Int.random(in: 0..<bytes.count, using: &random)
                bytes[index] ^= 1 << UInt8.random(in: 0...7, using: &random)
            }
            fixChecksum(&bytes, probability: 0.5, using: &random)
        case 3:
            bytes = Array(bytes.prefix(Int.random(in: 0...bytes.count, using: &random)))
            fixChecksum(&bytes, probability: 0.5, using: &random)
        case 4:
            editSizeField(&bytes, using: &random)
            fixChecksum(&bytes, probability: 0.7, using: &random)
        default:
            // Splice random options in, sometimes enlarging past the 4096 limit.
            let insertAt = 16
            let length = Bool.random(using: &random) ? Int.random(in: 0...64, using: &random) : 4100
            var option = random.bytes(length)
            if option.count >= 4, Bool.random(using: &random) {
                option[2] = UInt8(truncatingIfNeeded: length)
                option[3] = UInt8(truncatingIfNeeded: length >> 8)
            }
            if bytes.count >= insertAt {
                bytes.insert(contentsOf: option, at: insertAt)
            }
            fixChecksum(&bytes, probability: 0.8, using: &random)
        }
        return bytes
    }

    /// Sets one option's size to something interesting: 0–8, off by a little, or anything.
    static func editSizeField(_ bytes: inout [UInt8], using random: inout SplitMix64) {
        var offsets: [Int] = []
        var offset = 16
        while offset + 4 <= bytes.count {
            offsets.append(offset)
            let size = Int(bytes[offset + 2]) | Int(bytes[offset + 3]) << 8
            guard size >= 4 else { break }
            offset += size
        }
        guard let target = offsets.randomElement(using: &random) else { return }
        let old = Int(bytes[target + 2]) | Int(bytes[target + 3]) << 8
        let new: Int
        switch Int.random(in: 0...2, using: &random) {
        case 0: new = Int.random(in: 0...8, using: &random)
        case 1: new = max(0, old + Int.random(in: -6...6, using: &random))
        default: new = Int.random(in: 0...0xFFFF, using: &random)
        }
        bytes[target + 2] = UInt8(truncatingIfNeeded: new)
        bytes[target + 3] = UInt8(truncatingIfNeeded: new >> 8)
    }

    /// Rewrites the last four bytes as the byte sum of everything before the last eight, so mutations reach
    /// the decoders behind the checksum.
    static func fixChecksum(_ bytes: inout [UInt8], probability: Double, using random: inout SplitMix64) {
        guard bytes.count >= 24, Double.random(in: 0..<1, using: &random) < probability else { return }
        let sum = bytes[..<(bytes.count - 8)].reduce(UInt32(0)) { $0 &+ UInt32($1) }
        for index in 0..<4 {
            bytes[bytes.count - 4 + index] = UInt8(truncatingIfNeeded: sum >> (8 * UInt32(index)))
        }
    }

    static func kind(of error: NavdataError) -> String {
        String(String(describing: error).prefix { $0 != "(" })
    }
}
