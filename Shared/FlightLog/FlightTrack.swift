import Clocks
import Navigation
import QuadProtocol

/// One drone's flight as the exporters see it: positions with the controller activity and drone state at each,
/// the targets it was sent to, and where it took off. Built from decoded log entries in receive order.
public struct FlightTrack: Sendable, Equatable {
    public struct Point: Sendable, Equatable {
        public var receivedAt: WallInstant
        public var position: GeoPoint
        /// Above mean sea level, from the fix; nil when the source has none.
        public var altitudeMslM: Float?
        /// The latest controller activity at this time; nil before the first ControllerState.
        public var activity: ControllerState.Activity?
        /// Height above the takeoff point from the latest DroneState (ultrasound/barometer).
        public var heightM: Float?
        public var batteryPercent: UInt8?
        public var isAirborne: Bool
    }

    public struct TargetMark: Sendable, Equatable {
        public var receivedAt: WallInstant
        /// Who sent it (Target.senderId); "controller" for a target only seen in ControllerState.
        public var senderId: String
        public var position: GeoPoint
        public var altitudeM: Float?
    }

    public struct ActivityChange: Sendable, Equatable {
        public var receivedAt: WallInstant
        public var activity: ControllerState.Activity
        public var reason: String
    }

    public struct StateSample: Sendable, Equatable {
        public var receivedAt: WallInstant
        public var heightM: Float
        public var batteryPercent: UInt8
        public var controlState: DroneState.ControlState
    }

    /// The drone whose messages were used; nil when no entry had a `quad/<id>/…` topic.
    public var droneId: DroneID?
    public var points: [Point] = []
    /// Distinct targets in the order first seen (a target repeated within `sameTargetM` is listed once).
    public var targets: [TargetMark] = []
    public var activityChanges: [ActivityChange] = []
    public var stateSamples: [StateSample] = []
    /// The log's receive stamps of the drone's first and last message.
    public var firstReceivedAt: WallInstant?
    public var lastReceivedAt: WallInstant?

    /// Targets closer than this to an already listed one are the same target re-sent.
    public static let sameTargetM = 1.0

    /// False when the log has no PositionFix for the drone: there is nothing to plot.
    public var hasPositions: Bool { !points.isEmpty }

    /// Where the flight started: the first position while airborne, else the first position.
    public var takeoff: Point? { points.first(where: \.isAirborne) ?? points.first }

    /// Uses the entries of `drone`, or of the first drone seen when nil; entries for other drones are ignored.
    public init(entries: some Sequence<DecodedLogEntry>, drone: DroneID? = nil) {
        droneId = drone
        var builder = FlightTrackBuilder()
        for entry in entries {
            guard case .message(let message) = entry.content, let entryDrone = DroneID(topic: entry.topic) else {
                continue
            }
            if droneId == nil { droneId = entryDrone }
            guard entryDrone == droneId else { continue }
            let receivedAt = WallInstant(us: entry.receiveTimeUs)
            firstReceivedAt = firstReceivedAt.map { min($0, receivedAt) } ?? receivedAt
            lastReceivedAt = lastReceivedAt.map { max($0, receivedAt) } ?? receivedAt
            builder.add(message, receivedAt: receivedAt, to: &self)
        }
    }

    mutating func addTarget(_ mark: TargetMark) {
        let isKnown = targets.contains {
            Geodesy.inverse(from: $0.position, to: mark.position).distanceM < Self.sameTargetM
        }
        if !isKnown { targets.append(mark) }
    }
}

/// The running state while a FlightTrack is built: the latest activity and drone state apply to later fixes.
struct FlightTrackBuilder {
    var activity: ControllerState.Activity?
    var state: DroneState?

    mutating func add(_ message: AnyWireMessage, receivedAt: WallInstant, to track: inout FlightTrack) {
        switch message {
        case .positionFix(let fix):
            track.points.append(FlightTrack.Point(
                receivedAt: receivedAt,
                position: GeoPoint(latitudeDeg: fix.latitudeDeg, longitudeDeg: fix.longitudeDeg),
                altitudeMslM: fix.altitudeM, activity: activity, heightM: state?.altitudeM,
                batteryPercent: state?.batteryPercent, isAirborne: isAirborne))
        case .target(let target):
            track.addTarget(FlightTrack.TargetMark(
                receivedAt: receivedAt, senderId: target.senderId,
                position: GeoPoint(latitudeDeg: target.latitudeDeg, longitudeDeg: target.longitudeDeg),
                altitudeM: target.altitudeM))
        case .controllerState(let controller):
            if controller.activity != activity {
                track.activityChanges.append(FlightTrack.ActivityChange(
                    receivedAt: receivedAt, activity: controller.activity, reason: controller.reason.code))
            }
            activity = controller.activity
            if let latitude = controller.targetLatitudeDeg, let longitude = controller.targetLongitudeDeg {
                track.addTarget(FlightTrack.TargetMark(
                    receivedAt: receivedAt, senderId: "controller",
                    position: GeoPoint(latitudeDeg: latitude, longitudeDeg: longitude), altitudeM: nil))
            }
        case .droneState(let drone):
            state = drone
            track.stateSamples.append(FlightTrack.StateSample(
                receivedAt: receivedAt, heightM: drone.altitudeM, batteryPercent: drone.batteryPercent,
                controlState: drone.controlState))
        default:
            break
        }
    }

    /// Airborne by the drone's own report when there is one, else by what the controller says it is doing.
    private var isAirborne: Bool {
        if let state { return state.controlState.isAirborne || state.controlState == .takingOff }
        guard let activity else { return false }
        return activity != .landed
    }
}
