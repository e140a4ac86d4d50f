import Testing
import TextSupport

@Suite struct DecimalTextTests {
    @Test(arguments: [
        (1.5, 3, "1.500"), (-2.25, 1, "-2.3"), (2.25, 1, "2.3"), (-0.0004, 3, "0.000"), (-0.0005, 3, "-0.001"),
        (0.0, 0, "0"), (-0.0, 2, "0.00"), (7, 0, "7"), (-7.5, 0, "-8"), (0.1 + 0.2, 15, "0.300000000000000"),
        (123_456_789.123_456, 6, "123456789.123456"), (1e-7, 6, "0.000000"),
    ] as [(Double, Int, String)])
    func fixedRoundsHalfAwayFromZero(value: Double, digits: Int, expected: String) {
        #expect(DecimalText.fixed(value, fractionDigits: digits) == expected)
    }

    @Test(arguments: [(1.25, 3, "1.25"), (-3.0, 4, "-3"), (0.000_01, 8, "0.00001"), (100.0, 2, "100")]
          as [(Double, Int, String)])
    func trimmingZeros(value: Double, digits: Int, expected: String) {
        #expect(DecimalText.fixed(value, fractionDigits: digits, trimmingZeros: true) == expected)
    }

    @Test func notFiniteOrTooLargeHasNoFixedText() {
        for value in [Double.nan, .infinity, -.infinity, 1e300, -1e19, Double.greatestFiniteMagnitude] {
            #expect(DecimalText.fixed(value, fractionDigits: 2) == nil)
        }
        #expect(DecimalText.fixed(8e18, fractionDigits: 0) == "8000000000000000000")
        #expect(DecimalText.fixed(-8e18, fractionDigits: 0) == "-8000000000000000000")
        #expect(DecimalText.fixed(9.5e14, fractionDigits: 1, limit: 1e15) == nil)
        #expect(DecimalText.fixed(9.5e13, fractionDigits: 1, limit: 1e15) == "95000000000000.0")
    }

    @Test func digitsAreClampedToZeroThroughFifteen() {
        #expect(DecimalText.fixed(1.5, fractionDigits: -3) == "2")
        #expect(DecimalText.fixed(1, fractionDigits: 40) == "1.000000000000000")
    }

    @Test(arguments: [(7, 2, "07"), (-7, 3, "-007"), (2026, 4, "2026"), (12345, 2, "12345"), (0, 3, "000")])
    func zeroPadded(value: Int, width: Int, expected: String) {
        #expect(DecimalText.zeroPadded(value, width: width) == expected)
    }

    // Moved from NavigationTests (the solve report's JSON numbers).
    @Test(arguments: [
        (0.0, 3, "0.000"), (-0.0, 3, "0.000"), (1.5, 3, "1.500"), (-2.25, 1, "-2.3"), (0.0004, 3, "0.000"),
        (0.0005, 3, "0.001"), (-0.0004, 3, "0.000"), (123.456789, 6, "123.456789"), (7, 0, "7"),
        (20003931.4586, 3, "20003931.459"), (-179.5, 6, "-179.500000"), (1e20, 3, "1e+20"),
        (.nan, 3, "null"), (.infinity, 6, "null"),
    ] as [(Double, Int, String)])
    func json(value: Double, digits: Int, expected: String) {
        #expect(DecimalText.json(value, fractionDigits: digits) == expected)
    }

    // Moved from FlightLogTests (the exporters' coordinates).
    @Test(arguments: [
        (0.0, 8, "0"), (1e-5, 8, "0.00001"), (-0.5, 2, "-0.5"), (52.473_300_004, 8, "52.4733"),
        (13.999_999_999, 8, "14"), (-180.0, 8, "-180"), (Double.nan, 3, "0"), (1e300, 2, "0"),
    ])
    func format(value: Double, digits: Int, expected: String) {
        #expect(DecimalText.format(value, fractionDigits: digits) == expected)
    }
}
