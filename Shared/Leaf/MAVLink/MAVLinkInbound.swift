/// A decoded message of one of the types this code knows.
public enum MAVLinkInbound: Sendable, Equatable {
    case heartbeat(Heartbeat)
    case sysStatus(SysStatus)
    case batteryStatus(BatteryStatus)
    case globalPositionInt(GlobalPositionInt)
    case attitude(Attitude)
    case gpsRawInt(GPSRawInt)
    case extendedSysState(ExtendedSysState)
    case commandLong(CommandLong)
    case commandAck(CommandAck)
    case setPositionTargetLocalNED(SetPositionTargetLocalNED)
    case paramRequestRead(ParamRequestRead)
    case paramValue(ParamValue)
    case paramSet(ParamSet)
    case paramRequestList(ParamRequestList)
    case homePosition(HomePosition)
    case autopilotVersion(AutopilotVersion)
    case statusText(StatusText)
    case commandInt(CommandInt)
    case missionCount(MissionCount)
    case missionRequestInt(MissionRequestInt)
    case missionItemInt(MissionItemInt)
    case missionAck(MissionAck)
    case missionCurrent(MissionCurrent)
    case missionItemReached(MissionItemReached)
    case missionClearAll(MissionClearAll)
    case missionSetCurrent(MissionSetCurrent)
    case localPositionNED(LocalPositionNED)
    case missionRequest(MissionRequest)
    case missionRequestList(MissionRequestList)

    /// Every known type; the parser takes CRC_EXTRA from here.
    public static let messageTypes: [any MAVLinkMessage.Type] = [
        Heartbeat.self, SysStatus.self, BatteryStatus.self, GlobalPositionInt.self, Attitude.self, GPSRawInt.self,
        ExtendedSysState.self, CommandLong.self, CommandAck.self, SetPositionTargetLocalNED.self,
        ParamRequestRead.self, ParamValue.self, ParamSet.self, ParamRequestList.self, HomePosition.self,
        AutopilotVersion.self, StatusText.self, CommandInt.self, MissionCount.self, MissionRequestInt.self,
        MissionItemInt.self, MissionAck.self, MissionCurrent.self, MissionItemReached.self, MissionClearAll.self,
        MissionSetCurrent.self,
        LocalPositionNED.self, MissionRequest.self, MissionRequestList.self,
    ]

    public static func crcExtra(messageId: UInt32) -> UInt8? {
        messageTypes.first { $0.messageId == messageId }?.crcExtra
    }

    /// Decodes a checked frame; nil for an id not in `messageTypes` (the parser rejects those before).
    public init?(_ frame: MAVLinkFrame) {
        let p = frame.payload
        switch frame.messageId {
        case Heartbeat.messageId: self = .heartbeat(Heartbeat(payload: p))
        case SysStatus.messageId: self = .sysStatus(SysStatus(payload: p))
        case BatteryStatus.messageId: self = .batteryStatus(BatteryStatus(payload: p))
        case GlobalPositionInt.messageId: self = .globalPositionInt(GlobalPositionInt(payload: p))
        case Attitude.messageId: self = .attitude(Attitude(payload: p))
        case GPSRawInt.messageId: self = .gpsRawInt(GPSRawInt(payload: p))
        case ExtendedSysState.messageId: self = .extendedSysState(ExtendedSysState(payload: p))
        case CommandLong.messageId: self = .commandLong(CommandLong(payload: p))
        case CommandAck.messageId: self = .commandAck(CommandAck(payload: p))
        case SetPositionTargetLocalNED.messageId:
            self = .setPositionTargetLocalNED(SetPositionTargetLocalNED(payload: p))
        case ParamRequestRead.messageId: self = .paramRequestRead(ParamRequestRead(payload: p))
        case ParamValue.messageId: self = .paramValue(ParamValue(payload: p))
        case ParamSet.messageId: self = .paramSet(ParamSet(payload: p))
        case ParamRequestList.messageId: self = .paramRequestList(ParamRequestList(payload: p))
        case HomePosition.messageId: self = .homePosition(HomePosition(payload: p))
        case AutopilotVersion.messageId: self = .autopilotVersion(AutopilotVersion(payload: p))
        case StatusText.messageId: self = .statusText(StatusText(payload: p))
        case CommandInt.messageId: self = .commandInt(CommandInt(payload: p))
        case MissionCount.messageId: self = .missionCount(MissionCount(payload: p))
        case MissionRequestInt.messageId: self = .missionRequestInt(MissionRequestInt(payload: p))
        case MissionItemInt.messageId: self = .missionItemInt(MissionItemInt(payload: p))
        case MissionAck.messageId: self = .missionAck(MissionAck(payload: p))
        case MissionCurrent.messageId: self = .missionCurrent(MissionCurrent(payload: p))
        case MissionItemReached.messageId: self = .missionItemReached(MissionItemReached(payload: p))
        case MissionClearAll.messageId: self = .missionClearAll(MissionClearAll(payload: p))
        case MissionSetCurrent.messageId: self = .missionSetCurrent(MissionSetCurrent(payload: p))
        case LocalPositionNED.messageId: self = .localPositionNED(LocalPositionNED(payload: p))
        case MissionRequest.messageId: self = .missionRequest(MissionRequest(payload: p))
        case MissionRequestList.messageId: self = .missionRequestList(MissionRequestList(payload: p))
        default: return nil
        }
    }
}
