import Logging

/// What the drone-link executable must do after feeding an event to `LinkStateMachine`, in order.
public enum LinkAction: Sendable, Equatable {
    /// One datagram for the AT port (UDP 5556), never more than 1024 bytes.
    case sendAT([UInt8])
    /// `01 00 00 00` to the navdata port (UDP 5554), from the socket navdata is received on.
    case sendNavdataTrigger
    /// A valid, in-order packet with the demo option: publish it as a `DroneState`.
    case publishDroneState(NavdataPacket)
    /// A valid, in-order packet whose GPS option has a fix (`NavdataGPS.hasFix`): publish it as a `PositionFix`.
    case publishPosition(NavdataPacket)
    /// Publish as a `LinkStatus` (retained).
    case publishLinkStatus(LinkHealth)
    case log(Logger.Level, String)
}

/// The datagram that asks the drone to start (or resume) sending navdata to its source address.
public enum NavdataTrigger {
    /// int32 1 little-endian = "unicast" in the SDK.
    public static let bytes: [UInt8] = [0x01, 0x00, 0x00, 0x00]
}
