import Airspace
import QuadProtocol

/// The controller's airspace (issue 38): the accepted upload, validated, and the last refusals that
/// `AirspaceStatus` reports. Without an upload only the --geofence-radius circle applies; with one, both do.
public struct AirspaceRecord: Sendable {
    /// The airspace in force, nil before the first accepted upload.
    public internal(set) var current: Airspace?
    /// Its `AirspaceDefinition.checksum`.
    public internal(set) var checksum: UInt32 = 0
    var uploadRefusal: AirspaceStatus.UploadRefusal?
    var targetRefusal: AirspaceStatus.TargetRefusal?
    var statusSequence: UInt32 = 0
    /// Paths around the zones of `current` (its checksum), built off the controller's thread (`buildPathPlanner`):
    /// nil until then, and a target behind a zone is refused meanwhile, as before paths were flown.
    var planner: PathPlanner?
    var plannerChecksum: UInt32 = 0

    public init() {}

    /// How far a planned path's corners keep from every zone: the margin and half of it again, at least 3 m more.
    /// The drone passes a corner within its arrival radius and its fixes are noisy (drone-sim: 1.5 m per axis);
    /// the airspace watch brakes at half the margin, so a path at the margin itself would be braked on.
    public static func routeClearanceM(marginM: Double) -> Double { marginM + max(3, marginM / 2) }

    /// What the planner is built from: `current` with the route's clearance as its margin.
    func plannerRequest() -> PathPlannerRequest? {
        guard let current else { return nil }
        let clearanceM = Self.routeClearanceM(marginM: current.marginM)
        guard let planning = try? Airspace(zones: current.zones, ceilingM: current.ceilingM, floorM: current.floorM,
                                           marginM: clearanceM, reference: current.reference) else { return nil }
        return PathPlannerRequest(checksum: checksum, airspace: planning)
    }

    /// The status as published next (a new sequence each time).
    mutating func nextStatus() -> AirspaceStatus {
        statusSequence &+= 1
        return AirspaceStatus(
            sequence: statusSequence, timestampUs: 0,
            accepted: current.map { .init(checksum: checksum, zoneCount: $0.zones.count) },
            uploadRefusal: uploadRefusal, targetRefusal: targetRefusal)
    }
}

/// An airspace to build a `PathPlanner` for, off the controller's thread: 20 zones of 50 vertices take 0.7 s
/// (BENCHMARKS.md), which the 30 Hz tick must never wait for. Equal when for the same upload.
public struct PathPlannerRequest: Sendable, Equatable {
    public let checksum: UInt32
    public let airspace: Airspace

    public static func == (a: Self, b: Self) -> Bool { a.checksum == b.checksum }
}
