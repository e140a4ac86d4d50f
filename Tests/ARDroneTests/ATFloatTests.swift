import ARDrone
import Testing

@Suite struct ATFloatTests {
    /// Golden values from the objc.io article, the AR.Drone Developer Guide and node-ar-drone's tests.
    static let golden: [(Float, Int32)] = [
        (0.0, 0),
        (0.1, 1_036_831_949),
        (0.2, 1_045_220_557),
        (-0.2, -1_102_263_091),
        (0.5, 1_056_964_608),
        (0.75, 1_061_158_912),
        (0.8, 1_061_997_773),
        (-0.8, -1_085_485_875),
        (1.0, 1_065_353_216),
        (-1.0, -1_082_130_432),
    ]

    @Test(arguments: golden)
    func encodesBitPatternAsSignedDecimal(value: Float, wire: Int32) {
        #expect(ATFloat.encode(value) == wire)
    }

    @Test(arguments: golden)
    func decodesBack(value: Float, wire: Int32) {
        #expect(ATFloat.decode(wire) == value)
    }

    /// go-ardrone's float64-halves bug would give 1071644672 for 0.5.
    @Test func isNotTheUpperHalfOfADouble() {
        #expect(ATFloat.encode(0.5) != 1_071_644_672)
    }
}
