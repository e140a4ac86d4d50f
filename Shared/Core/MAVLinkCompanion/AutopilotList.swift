import MAVLink

/// A list the board keeps on the autopilot through the MAVLink mission protocol (`AutopilotListSync`): the held
/// airspace as its fence (`FencePlan`, mission type 1), the held plan as its mission (`AutopilotMission`, type 0).
public protocol AutopilotList: Sendable, Equatable {
    /// What the sync publishes about the list: the payload of its retained topic.
    associatedtype Status: Sendable, Equatable

    /// MAV_MISSION_TYPE of the transfer.
    static var missionType: UInt8 { get }
    /// What the list is to the autopilot: "fence", "mission"; log lines start with "autopilot " and it.
    static var noun: String { get }
    /// What the list is on the board: "the board's airspace", "the board's plan".
    static var boardName: String { get }
    /// The board's checksum of what the list carries: the same checksum again is the same list.
    var checksum: UInt32 { get }
    /// What the list says differently from the board's own, one line each (logged at hold).
    var notes: [String] { get }
    /// The list as this autopilot numbers it (ArduPilot's mission starts with its home, item 0); seq and target
    /// are set by the sync.
    func items(flavor: AutopilotFlavor) -> [MissionItemInt]
    /// Parameters to set between the upload and the read-back (the fence's); none for a mission.
    func parameters(flavor: AutopilotFlavor) -> [FenceParameters.Setting]
    /// Why `readBack` is not this list (the first difference), or nil when it is.
    func difference(from readBack: [MissionItemInt], flavor: AutopilotFlavor) -> String?
    /// The status to publish: `accepted` when the read-back is this list, `refusal` why not (or what else is off).
    func status(accepted: Bool, refusal: String?) -> Status
}

extension AutopilotList {
    static var logName: String { "autopilot \(noun)" }
}
