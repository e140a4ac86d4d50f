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

    public init() {}

    /// The status as published next (a new sequence each time).
    mutating func nextStatus() -> AirspaceStatus {
        statusSequence &+= 1
        return AirspaceStatus(
            sequence: statusSequence, timestampUs: 0,
            accepted: current.map { .init(checksum: checksum, zoneCount: $0.zones.count) },
            uploadRefusal: uploadRefusal, targetRefusal: targetRefusal)
    }
}
