import Clocks
import FlightControl
import Navigation
import Testing

/// The mean of the last fixes (home at takeoff, the airspace watch): noise averaged, old fixes dropped, and fixes
/// either side of the antimeridian averaged where they are, not half a world away.
@Suite struct PositionAverageTests {
    static let t0 = MonotonicInstant(us: 1_000_000)
    static func at(ms: Int64) -> MonotonicInstant { t0.advanced(by: .milliseconds(ms)) }

    @Test func theMeanOfTheFixesInTheWindow() throws {
        var average = PositionAverage(window: .seconds(1))
        #expect(average.mean == nil)
        average.observe(GeoPoint(latitudeDeg: 52.0, longitudeDeg: 13.0), at: Self.t0)
        average.observe(GeoPoint(latitudeDeg: 52.0002, longitudeDeg: 13.0004), at: Self.at(ms: 500))
        let mean = try #require(average.mean)
        #expect(abs(mean.latitudeDeg - 52.0001) < 1e-9 && abs(mean.longitudeDeg - 13.0002) < 1e-9)
        // 1.2 s on: the first fix has left the window.
        average.observe(GeoPoint(latitudeDeg: 52.0004, longitudeDeg: 13.0008), at: Self.at(ms: 1200))
        #expect(abs(try #require(average.mean).latitudeDeg - 52.0003) < 1e-9)
    }

    @Test func acrossTheAntimeridianTheMeanStaysThere() throws {
        var average = PositionAverage(window: .seconds(1))
        average.observe(GeoPoint(latitudeDeg: -16.5, longitudeDeg: 179.99999), at: Self.t0)
        average.observe(GeoPoint(latitudeDeg: -16.5, longitudeDeg: -179.99997), at: Self.at(ms: 100))
        let mean = try #require(average.mean)
        // 179.99999 and 180.00003: the mean is 180.00001, i.e. -179.99999.
        #expect(abs(Geodesy.wrapDeg180(mean.longitudeDeg - -179.99999)) < 1e-9, "\(mean)")
        #expect(Geodesy.inverse(from: mean, to: GeoPoint(latitudeDeg: -16.5, longitudeDeg: 180)).distanceM < 5)
    }
}
