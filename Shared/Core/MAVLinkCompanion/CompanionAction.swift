import Logging
import Mission
import QuadProtocol

/// What the mavlink-link executable must do after feeding an event to `CompanionStateMachine`, in order.
/// Bus messages carry sequence 0 and timestamp 0: the executable stamps them (pure code reads no clock).
public enum CompanionAction: Sendable, Equatable {
    /// One datagram to the autopilot (the address its datagrams come from).
    case send([UInt8])
    case publishDroneState(DroneState)
    case publishPosition(PositionFix)
    case publishLinkStatus(LinkStatus)
    /// On `airspace/fence` (retained): whether the autopilot's own fence holds the board's airspace.
    case publishFenceStatus(AirspaceStatus)
    /// On `mission/autopilot` (retained): whether the autopilot's own mission holds the board's plan.
    case publishAutopilotMission(MissionStatus)
    case log(Logger.Level, String)
}
