import Checksums
import MAVLink
import QuadProtocol

/// The held airspace as the list `FenceSync` keeps on the autopilot (mission type 1).
extension FencePlan: AutopilotList {
    public static var missionType: UInt8 { MAVMissionType.fence }
    public static var noun: String { "fence" }
    public static var boardName: String { "the board's airspace" }

    public func items(flavor: AutopilotFlavor) -> [MissionItemInt] {
        items.enumerated().map { seq, item in item.missionItem(seq: UInt16(seq), target: (0, 0)) }
    }

    public func parameters(flavor: AutopilotFlavor) -> [FenceParameters.Setting] {
        ceilingM.map { FenceParameters.settings(for: flavor, ceilingM: $0) } ?? []
    }

    public func difference(from readBack: [MissionItemInt], flavor: AutopilotFlavor) -> String? {
        difference(from: readBack.map(FenceItem.init))
    }


    public func status(accepted: Bool, refusal: String?) -> AirspaceStatus {
        var reason = refusal ?? ""
        while reason.utf8.count > AirspaceStatus.reasonBytes.upperBound { reason.removeLast() }
        return AirspaceStatus(
            sequence: 0, timestampUs: 0,
            accepted: accepted ? .init(checksum: checksum, zoneCount: zoneCount) : nil,
            uploadRefusal: refusal.map { _ in .init(checksum: checksum, reason: reason) })
    }
}

extension AutopilotListSync where List == FencePlan {
    /// The airspace drone-controller holds (`airspace/held`); the same checksum again changes nothing.
    mutating func hold(_ definition: AirspaceDefinition, nowUs: Int64) -> [Output] {
        hold(FencePlan(definition), nowUs: nowUs)
    }
}
