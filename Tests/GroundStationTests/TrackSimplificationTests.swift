#if canImport(Glibc)
import Glibc
#endif
import DroneSimulation
import Navigation
import Testing
@testable import GroundStation

/// Issue 33 item 5: re-flying telemetry-logger's GPX export flew 1583 waypoints. A track is simplified with
/// Douglas–Peucker to a stated tolerance; routes and waypoints are flown as they are.
@Suite struct TrackSimplificationTests {
    static let home = GeoPoint(latitudeDeg: 52.516_27, longitudeDeg: 13.377_70)

    /// 1583 fixes of an out-and-back 44 m north-east and back, with seeded noise (drone-sim's generator) of σ per axis.
    static func outAndBack(noiseM: Double, seed: UInt64) -> String {
        var random = SeededRandom(seed: seed)
        let plane = LocalTangentPlane(origin: home)
        var gpx = "<gpx version=\"1.1\">\n<wpt lat=\"52.5163\" lon=\"13.3777\"/>\n<trk><trkseg>\n"
        for index in 0..<1583 {
            // 0…1 out, back to 0: a hover at each end, the legs straight.
            let phase = Double(index) / 1582
            let fraction = phase < 0.1 ? 0 : phase < 0.45 ? (phase - 0.1) / 0.35 : phase < 0.55 ? 1
                : phase < 0.9 ? 1 - (phase - 0.55) / 0.35 : 0
            let alongM = 44 * fraction
            let point = plane.point(.init(eastM: alongM * 0.643 + random.nextGaussian() * noiseM,
                                          northM: alongM * 0.766 + random.nextGaussian() * noiseM))
            gpx += "<trkpt lat=\"\(point.latitudeDeg)\" lon=\"\(point.longitudeDeg)\"><time>t</time></trkpt>\n"
        }
        return gpx + "</trkseg></trk>\n</gpx>\n"
    }

    @Test func aNoisyOutAndBackTrackBecomesAHandfulOfWaypoints() throws {
        let loaded = try RouteFile.load(text: Self.outAndBack(noiseM: 0.2, seed: 1), fileName: "flight.gpx")
        #expect(loaded.waypoints.count >= 3 && loaded.waypoints.count <= 8, "\(loaded.waypoints.count)")
        #expect(loaded.summary.hasPrefix("\(loaded.waypoints.count) waypoints (<trkpt>; 1583 track points simplified "
            + "to \(loaded.waypoints.count) waypoints within 2.0 m (Douglas–Peucker); ignored: 1 <wpt>)"),
                "\(loaded.summary)")
        // The turning point is flown: some waypoint is near the far end, 44 m out.
        let farthestM = loaded.waypoints.map {
            Geodesy.inverse(from: Self.home, to: GeoPoint(latitudeDeg: $0.latitudeDeg, longitudeDeg: $0.longitudeDeg))
                .distanceM
        }.max() ?? 0
        #expect(abs(farthestM - 44) < 2)
        let everyPoint = try RouteFile.load(text: Self.outAndBack(noiseM: 0.2, seed: 1), fileName: "flight.gpx",
                                            simplifyToleranceM: 0)
        #expect(everyPoint.waypoints.count == 1583)
    }

    /// The Douglas–Peucker property: every original point lies within the tolerance of the simplified polyline.
    @Test(arguments: 1...20)
    func everyPointIsWithinToleranceOfTheSimplifiedTrack(seed: Int) {
        var random = SeededRandom(seed: UInt64(seed))
        let plane = LocalTangentPlane(origin: Self.home)
        var eastM = 0.0, northM = 0.0
        let points = (0..<(50 + Int(random.nextUnit() * 400))).map { _ in
            eastM += random.nextGaussian() * 3
            northM += random.nextGaussian() * 3
            return plane.point(.init(eastM: eastM, northM: northM))
        }
        let toleranceM = 0.5 + random.nextUnit() * 5
        let kept = DouglasPeucker.keptIndices(points, toleranceM: toleranceM)
        #expect(kept.first == 0 && kept.last == points.count - 1)
        #expect(kept == kept.sorted())
        let metres = points.map { plane.metres($0) }
        for (start, end) in zip(kept, kept.dropFirst()) {
            for index in start...end {
                let distanceM = DouglasPeucker.segmentDistanceM(metres[index], from: metres[start], to: metres[end])
                #expect(distanceM <= toleranceM + 1e-6, "point \(index): \(distanceM) m > \(toleranceM) m")
            }
        }
    }

    @Test func routesAndWaypointsAreFlownAsTheyAre() throws {
        var gpx = "<gpx>\n<rte>\n"
        for index in 0..<30 { gpx += "<rtept lat=\"52.5\" lon=\"\(13.0 + Double(index) * 0.000_001)\"/>\n" }
        gpx += "</rte>\n</gpx>\n"
        let route = try GPXRouteParser.parseRoute(gpx)
        #expect(route.waypoints.count == 30)
        #expect(route.trackPointCount == 0)
        #expect(try RouteFile.load(text: gpx, fileName: "r.gpx").summary == "30 waypoints (<rtept>)")
    }

    @Test func degenerateInputs() {
        #expect(DouglasPeucker.keptIndices([], toleranceM: 2).isEmpty)
        #expect(DouglasPeucker.keptIndices([Self.home], toleranceM: 2) == [0])
        #expect(DouglasPeucker.keptIndices([Self.home, Self.home, Self.home], toleranceM: 2) == [0, 2])
        let bad = GeoPoint(latitudeDeg: .nan, longitudeDeg: 0)
        #expect(DouglasPeucker.keptIndices([Self.home, bad, Self.home], toleranceM: .infinity) == [0, 2])
    }
}
