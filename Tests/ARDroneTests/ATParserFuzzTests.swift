import ARDrone
import Randomness
import Testing

/// Random and mutated datagrams through `ATParser.parse`: it must never trap, and whatever parses re-encodes to
/// text that parses to the same command.
@Suite struct ATParserFuzzTests {
    static let iterations = 24_000

    static let seeds: [String] = [
        "AT*REF=0,512\rAT*PCMD=1,0,0,0,0,0\r",
        "AT*REF=7,290718208\rAT*PCMD=8,1,0,-1102263091,0,1036831949\r",
        "AT*CONFIG=9,\"control:flight_anim\",\"3,1000\"\rAT*CTRL=10,5,0\r",
        "AT*CONFIG_IDS=11,\"ad1efdac\",\"992f7f4f\",\"510acf97\"\nAT*COMWDG=12\n",
        "AT*PCMD_MAG=13,5,1056964608,-1085485875,0,0,1065353216,-1082130432\r\n",
        "AT*PMODE=1,2\rAT*MISC=2,2,20,2000,3000\rAT*FTRIM=3\rAT*CALIB=4,0\rAT*LED=5,0,1056964608,4\rAT*ANIM=6,3,1000\r",
    ]

    /// Bytes that matter to the grammar, to make mutations likely to land on interesting structure.
    static let syntaxBytes: [UInt8] = Array("\r\n\",=*-0123456789AT".utf8) + [0x00, 0x7F, 0xFF, 0x20]

    @Test func randomAndMutatedDatagramsNeverTrap() {
        var random = SplitMix64(seed: 0xA7_0002)
        var parsed = 0
        var failed = 0
        for iteration in 0..<Self.iterations {
            let datagram = Self.candidate(iteration, using: &random)
            let results = ATParser.parse(datagram: datagram)
            if datagram.count > ATParser.maxDatagramBytes {
                #expect(results.count == 1)
            }
            for result in results {
                switch result {
                case .success(let command):
                    parsed += 1
                    let text = command.command.encoded(sequence: command.sequence)
                    let reparsed = ATParser.parse(datagram: Array(text.utf8))
                    let again = reparsed.count == 1 ? try? reparsed[0].get() : nil
                    #expect(again.map { $0.command.encoded(sequence: $0.sequence) } == text)
                case .failure:
                    failed += 1
                }
            }
        }
        #expect(parsed > 1000)
        #expect(failed > 1000)
    }

    static func candidate(_ iteration: Int, using random: inout SplitMix64) -> [UInt8] {
        var bytes = Array(seeds[Int.random(in: 0..<seeds.count, using: &random)].utf8)
        switch iteration % 4 {
        case 0:
            return random.bytes(Int.random(in: 0...1100, using: &random))
        case 1:
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                let index = Int.random(in: 0..<bytes.count, using: &random)
                bytes[index] = syntaxBytes.randomElement(using: &random) ?? 0
            }
        case 2:
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                let index = Int.random(in: 0...bytes.count, using: &random)
                if Bool.random(using: &random), index < bytes.count {
                    bytes.remove(at: index)
                } else {
                    bytes.insert(syntaxBytes.randomElement(using: &random) ?? 0, at: index)
                }
            }
        default:
            bytes = Array(bytes.prefix(Int.random(in: 0...bytes.count, using: &random)))
            if Bool.random(using: &random) {
                bytes += Array(repeating: bytes, count: Int.random(in: 1...40, using: &random)).flatMap { $0 }
            }
        }
        return bytes
    }
}
