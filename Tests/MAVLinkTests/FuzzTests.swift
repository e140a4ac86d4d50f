import MAVLink
import Testing

/// Random and mutated bytes never trap; every rejected frame is counted, and valid frames around garbage survive.
@Suite("MAVLink fuzz")
struct FuzzTests {
    /// xorshift64*: reproducible bytes without Foundation.
    struct Bytes {
        var state: UInt64
        mutating func next() -> UInt64 {
            state ^= state >> 12
            state ^= state << 25
            state ^= state >> 27
            return state &* 0x2545_F491_4F6C_DD1D
        }
        mutating func byte() -> UInt8 { UInt8(truncatingIfNeeded: next() >> 32) }
        mutating func below(_ n: Int) -> Int { Int(next() % UInt64(max(n, 1))) }
    }

    static let seeds = GoldenFrames.all.values.sorted { $0.lexicographicallyPrecedes($1) }

    @Test func randomBytesNeverTrap() {
        var random = Bytes(state: 0x4D41_564C_494E_4B21)
        var parser = MAVLinkStreamParser()
        for _ in 0..<3000 {
            let datagram = (0..<random.below(300)).map { _ in random.byte() }
            _ = parser.datagram(datagram)
            _ = parser.feed(datagram)
        }
        #expect(parser.counters.frames + parser.counters.errors + parser.counters.skippedBytes > 0)
    }

    @Test func mutatedGoldenFramesAreRejectedAndCountedNeverMisread() {
        var random = Bytes(state: 0x0BAD_F00D)
        var parser = MAVLinkStreamParser()
        var mutated = 0
        for _ in 0..<20_000 {
            var frame = Self.seeds[random.below(Self.seeds.count)]
            let original = frame
            switch random.below(4) {
            case 0: frame[random.below(frame.count)] ^= UInt8(1 << random.below(8))
            case 1: frame = Array(frame.prefix(random.below(frame.count)))
            case 2: frame.insert(random.byte(), at: random.below(frame.count))
            default: frame[random.below(frame.count)] = random.byte()
            }
            if frame != original { mutated += 1 }
            let before = parser.counters
            let events = parser.datagram(frame)
            // A changed frame is never taken as the original message (a CRC-16 collision is possible but the seeds
            // are fixed, so this is deterministic).
            for case .packet(let packet) in events where frame != original {
                #expect(packet.frame.payload.count > 0)
            }
            if frame != original, !frame.isEmpty {
                let after = parser.counters
                #expect(after.errors + after.skippedBytes > before.errors + before.skippedBytes
                        || after.frames > before.frames)
            }
        }
        #expect(mutated > 15_000)
        #expect(parser.counters.badCRC > 0 && parser.counters.truncated > 0)
    }

    @Test func validFramesSurviveBetweenGarbage() {
        var random = Bytes(state: 42)
        var parser = MAVLinkStreamParser()
        var expected = 0
        var got = 0
        for _ in 0..<500 {
            // Garbage without magic bytes, so it cannot swallow the frame after it.
            let garbage = (0..<random.below(40)).map { _ in random.byte() }.filter { $0 != 0xFD && $0 != 0xFE }
            let frame = Self.seeds[random.below(Self.seeds.count)]
            expected += 1
            for case .packet in parser.feed(garbage + frame) { got += 1 }
        }
        #expect(got == expected)
    }
}
