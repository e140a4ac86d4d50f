import Clocks
import FlightLog
import Navigation
import QuadProtocol
import Testing

/// Issue 33 item 4: the distance flown and the plotted track come from smoothed positions, not the raw fixes'
/// zigzag, and the Takeoff marker only where the log records a takeoff.
struct TrackSmootherTests {
    /// drone-sim's default noise (σ 1.5 m at 15 Hz) summed raw made this 88.7 m flight 4.5 km.
    @Test(arguments: [(1.5, 15.0, UInt64(1)), (1.5, 15.0, 2), (0.2, 15.0, 3), (0.5, 5.0, 4), (0.3, 10.0, 5)])
    func distanceFlownIsWithinTenPercentOfTheTruth(noiseM: Double, rateHz: Double, seed: UInt64) {
        let flight = NoisyFlight(noiseM: noiseM, rateHz: rateHz, seed: seed)
        let truthM = flight.truthDistanceM()
        #expect(abs(truthM - 88.7) < 1)
        let track = FlightTrack(entries: flight.entries())
        let distanceM = FlightSummary(track: track).distanceFlownM
        #expect(abs(distanceM - truthM) < 0.1 * truthM, "\(distanceM) m for \(truthM) m")
        // What the raw fixes sum to, for scale: the test would fail on them.
        let raw = zip(track.points, track.points.dropFirst()).reduce(0.0) {
            $0 + Geodesy.inverse(from: $1.0.position, to: $1.1.position).distanceM
        }
        #expect(raw > 2 * truthM)
        
    }

    @Test func theSmoothedTrackStaysNearTheTruePath() throws {
        let flight = NoisyFlight(seed: 6)
        let track = FlightTrack(entries: flight.entries())
        let smoothed = track.smoothedPositions()
        #expect(smoothed.count == track.points.count)
        let plane = LocalTangentPlane(origin: NoisyFlight.origin)
        let errorsM = zip(flight.truth(), smoothed).map { truth, position in
            let metres = plane.metres(position)
            let alongM = Geodesy.inverse(from: NoisyFlight.origin, to: position).distanceM
            let across = abs(metres.eastM * 0.766 - metres.northM * 0.643)  // off the 40° line
            return max(abs(alongM - abs(truth.alongM)), across)
        }
        let meanErrorM = errorsM.reduce(0, +) / Double(errorsM.count)
        #expect(meanErrorM < 0.8, "mean error \(meanErrorM) m with 1.5 m noise")
    }

    @Test func aLogStartedMidFlightHasNoTakeoffAndASaneDistance() throws {
        let flight = NoisyFlight(seed: 7)
        let entries = flight.entries()
        let truth = flight.truth()
        // From 30 s into the flight: airborne, flying out; no landed state, no taking_off.
        let startUs = NoisyFlight.startUs + 30_000_000
        let late = entries.filter { $0.receiveTimeUs >= startUs }
        let track = FlightTrack(entries: late)
        #expect(track.takeoff == nil)
        #expect(track.takeoffIndex == nil)
        let lateTruth = truth.filter { $0.atUs >= startUs }
        let truthM = zip(lateTruth, lateTruth.dropFirst()).reduce(0) { $0 + abs($1.1.alongM - $1.0.alongM) }
        let distanceM = FlightSummary(track: track).distanceFlownM
        #expect(abs(distanceM - truthM) < 0.1 * truthM, "\(distanceM) m for \(truthM) m")
        let svg = SVGTrackPlot.render(track)
        #expect(!svg.contains(">Takeoff<"))
        #expect(svg.contains("first fix (no takeoff in this log)"))
        #expect(!GPXExporter.export(track).contains("<name>Takeoff</name>"))
        #expect(!KMLExporter.export(track).contains("<name>Takeoff</name>"))
    }

    @Test func aRecordedTakeoffIsMarkedWhereItHappened() throws {
        let flight = NoisyFlight(seed: 8)
        let track = FlightTrack(entries: flight.entries())
        let takeoff = try #require(track.takeoff)
        // The first fix after the drone left `landed`, 10 s in.
        #expect(takeoff.receivedAt == WallInstant(us: NoisyFlight.startUs + 10_000_000 + 1_000))
        let svg = SVGTrackPlot.render(track)
        #expect(svg.contains(">Takeoff<"))
        #expect(svg.contains("Distance flown"))
        #expect(svg.contains("raw GPS fixes"))
    }

    @Test func theControllersTakingOffCountsAsATakeoff() throws {
        let fix = PositionFix(sequence: 1, timestampUs: 0, latitudeDeg: 1, longitudeDeg: 2, source: .manual)
        let state = ControllerState(sequence: 1, timestampUs: 0, activity: .takingOff, reason: .takeoff, pilotId: "")
        let track = FlightTrack(entries: [
            DecodedLogEntry(receiveTimeUs: 5, topic: "quad/d/telemetry/position", message: fix),
            DecodedLogEntry(receiveTimeUs: 6, topic: "quad/d/telemetry/controller", message: state),
            DecodedLogEntry(receiveTimeUs: 7, topic: "quad/d/telemetry/position", message: fix),
        ])
        #expect(track.takeoffIndex == 1)
    }

    @Test func glitchesAndNonFiniteFixesDoNotBendTheTrack() {
        var fixes = (0..<100).map { i in
            TrackSmoother.Fix(at: WallInstant(us: Int64(i) * 100_000),
                              position: Geodesy.destination(from: NoisyFlight.origin, bearingDeg: 90,
                                                            distanceM: Double(i) * 0.1))
        }
        fixes[40].position = Geodesy.destination(from: fixes[40].position, bearingDeg: 0, distanceM: 80)
        fixes[60].position = GeoPoint(latitudeDeg: .nan, longitudeDeg: 13)
        let smoothed = TrackSmoother.smooth(fixes)
        #expect(smoothed.count == 100)
        for (index, position) in smoothed.enumerated() {
            let truth = Geodesy.destination(from: NoisyFlight.origin, bearingDeg: 90, distanceM: Double(index) * 0.1)
            #expect(Geodesy.inverse(from: truth, to: position).distanceM < 1)
        }
        #expect(smoothed[60].latitudeDeg.isFinite)
        #expect(TrackSmoother.smooth([]).isEmpty)
    }
}

/// A GPX export is re-flown by `location-broadcaster route` (issue 33 item 5): its track carries the smoothed
/// positions, so Douglas–Peucker at route's 2 m keeps the legs flown, not drone-sim's 1.5 m GPS noise.
@Suite struct GPXTrackIsSmoothedTests {
    @Test(arguments: [UInt64(1), 2, 3])
    func aNoisyExportSimplifiesToTheLegsFlown(seed: UInt64) throws {
        let track = FlightTrack(entries: NoisyFlight(seed: seed).entries())
        let gpx = GPXExporter.export(track)
        let points = gpx.split(separator: "\n").filter { $0.contains("<trkpt ") }.compactMap { line -> GeoPoint? in
            func attribute(_ name: String) -> Double? {
                guard let start = line.range(of: "\(name)=\"") else { return nil }
                return Double(line[start.upperBound...].prefix { $0 != "\"" })
            }
            guard let lat = attribute("lat"), let lon = attribute("lon") else { return nil }
            return GeoPoint(latitudeDeg: lat, longitudeDeg: lon)
        }
        #expect(points.count == track.points.count)
        let kept = DouglasPeucker.keptIndices(points, toleranceM: 2)
        #expect(kept.count <= 12, "\(points.count) track points kept \(kept.count) waypoints")
    }
}
