import Testing
@testable import Navigation
import Randomness

@Suite struct GeodesyWrapTests {
    @Test(arguments: [
        (0.0, 0.0), (-0.0, 0.0), (179.5, 179.5), (180, -180), (-180, -180), (540, -180), (-540, -180),
        (360, 0), (-360, 0), (190, -170), (-190, 170), (1e-300, 1e-300), (-1e-300, -1e-300),
        (179.99999999999997, 179.99999999999997), (3600.25, 0.25), (-359.75, 0.25),
    ])
    func wrapDeg180Boundaries(input: Double, expected: Double) {
        let wrapped = Geodesy.wrapDeg180(input)
        #expect(wrapped == expected)
        #expect(wrapped.sign == .plus || wrapped != 0)
    }

    @Test(arguments: [
        (0.0, 0.0), (-0.0, 0.0), (360, 0), (-360, 0), (720, 0), (359.5, 359.5), (-0.5, 359.5),
        (-1e-20, 0), (1e-300, 1e-300), (-90, 270), (450, 90), (-720.25, 359.75),
    ])
    func wrapDeg360Boundaries(input: Double, expected: Double) {
        let wrapped = Geodesy.wrapDeg360(input)
        #expect(wrapped == expected)
        #expect(wrapped.sign == .plus)
    }

    @Test func wrapsStayInRangeAndAgree() {
        var rng = SplitMix64(seed: 5)
        for _ in 0..<5000 {
            let magnitude = [1.0, 360, 1e6, 1e-12][Int.random(in: 0..<4, using: &rng)]
            let x = Double.random(in: -magnitude...magnitude, using: &rng)
            let w180 = Geodesy.wrapDeg180(x), w360 = Geodesy.wrapDeg360(x)
            #expect(w180 >= -180 && w180 < 180, "\(x)")
            #expect(w360 >= 0 && w360 < 360, "\(x)")
            #expect(angleErrorDeg(w180, w360) < 1e-9, "\(x)")
            #expect(Geodesy.wrapDeg180(w180) == w180)
            #expect(Geodesy.wrapDeg360(w360) == w360)
        }
    }

    @Test(arguments: [Double.nan, .infinity, -.infinity])
    func nonFiniteGivesNaN(_ x: Double) {
        #expect(Geodesy.wrapDeg180(x).isNaN)
        #expect(Geodesy.wrapDeg360(x).isNaN)
    }
}
