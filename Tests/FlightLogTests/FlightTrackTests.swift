import Clocks
import Testing
import FlightLog
import Navigation
import QuadProtocol

struct FlightTrackTests {
    let track = FlightTrack(entries: SampleFlight.entries())

    @Test func usesTheFirstDroneSeenAndIgnoresOthers() {
        #expect(track.droneId == DroneID(rawValue: "drone1"))
        #expect(track.points.count == 156)
        #expect(track.points.allSatisfy { $0.position.latitudeDeg > 52 })
    }

    @Test func takeoffIsTheFirstPositionAfterTheDroneLeftTheGround() throws {
        let takeoff = try #require(track.takeoff)
        #expect(takeoff.isAirborne)
        #expect(takeoff.receivedAt == WallInstant(us: SampleFlight.startUs + 2_000_000 + 10_000))
        #expect(Geodesy.inverse(from: SampleFlight.origin, to: takeoff.position).distanceM < 1)
    }

    /// Issue 33 item 4: the first fix is not a takeoff point unless the log records a takeoff.
    @Test func noTakeoffWithoutOneInTheLog() throws {
        let fix = PositionFix(sequence: 1, timestampUs: 0, latitudeDeg: 1, longitudeDeg: 2, source: .manual)
        let ground = FlightTrack(entries: [DecodedLogEntry(receiveTimeUs: 5, topic: "quad/d/telemetry/position",
                                                           message: fix)])
        #expect(ground.takeoff == nil)
    }

    @Test func repeatedTargetsAreListedOnce() throws {
        #expect(track.targets.count == 1)
        let target = try #require(track.targets.first)
        #expect(target.senderId == SampleFlight.hostileSender)
    }

    @Test func pointsCarryTheActivityAtTheirTime() {
        let activities = track.points.map(\.activity)
        #expect(activities.first == .landed)
        #expect(activities.contains(.flyingToTarget))
        #expect(activities.last == .landed)
        #expect(track.activityChanges.map(\.activity) == [.landed, .takingOff, .flyingToTarget, .arrived, .landing,
            .landed])
    }

    @Test func summary() throws {
        let summary = FlightSummary(track: track)
        #expect(summary.distanceFlownM > 60 && summary.distanceFlownM < 75)
        #expect(summary.durationS > 31 && summary.durationS < 32)
        #expect(summary.maxHeightM == 3)
        #expect(summary.minBatteryPercent == 71)
        #expect(summary.fixCount == 156)
    }

    @Test func noPositionsMeansNothingToPlot() {
        let entries = SampleFlight.entries().filter { entry in
            if case .message(.positionFix) = entry.content { return false }
            return true
        }
        let empty = FlightTrack(entries: entries)
        #expect(!empty.hasPositions)
        #expect(empty.takeoff == nil)
        #expect(FlightSummary(track: empty).distanceFlownM == 0)
    }
}
