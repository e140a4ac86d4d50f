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

    /// Index in `points` of the first fix at or after the log's first takeoff: the drone's state leaving the
    /// ground (`TakeoffDetector`), or `taking_off` reported by the drone or the controller. nil when the log records
    /// no takeoff (started mid-flight, or the drone never left the ground): its first fix is not where it took off.
    public var takeoffIndex: Int?

    /// Where the flight started, when the log records a takeoff (`takeoffIndex`).
    public var takeoff: Point? { takeoffIndex.map { points[$0] } }

    /// The positions through `TrackSmoother`, index-aligned with `points`: what a plot draws and a distance sums.
    public func smoothedPositions(parameters: TrackSmoother.Parameters = TrackSmoother.Parameters()) -> [GeoPoint] {
        TrackSmoother.smooth(points.map { TrackSmoother.Fix(at: $0.receivedAt, position: $0.position) },
                             parameters: parameters)
    }

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
    var takeoffDetector = TakeoffDetector()
    /// A takeoff was seen and no fix has come since.
    var takeoffPending = false

    mutating func add(_ message: AnyWireMessage, receivedAt: WallInstant, to track: inout FlightTrack) {
        switch message {
        case .positionFix(let fix):
            if takeoffPending, track.takeoffIndex == nil { track.takeoffIndex = track.points.count }
            takeoffPending = false
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
            if controller.activity == .takingOff, activity != .takingOff { takeoffPending = true }
            activity = controller.activity
            if let latitude = controller.targetLatitudeDeg, let longitude = controller.targetLongitudeDeg {
                track.addTarget(FlightTrack.TargetMark(
                    receivedAt: receivedAt, senderId: "controller",
                    position: GeoPoint(latitudeDeg: latitude, longitudeDeg: longitude), altitudeM: nil))
            }
        case .droneState(let drone):
            // taking_off when first seen counts too (the log began during the takeoff, still over its spot);
            // airborne when first seen does not.
            let leftTheGround = takeoffDetector.observe(drone.controlState)
            if leftTheGround || (drone.controlState == .takingOff && state?.controlState != .takingOff) {
                takeoffPending = true
            }
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
