/// EXTENDED_SYS_STATE (245): whether the vehicle is on the ground, taking off, in the air or landing.
public struct ExtendedSysState: MAVLinkMessage {
    public static let messageId: UInt32 = 245
    public static let crcExtra: UInt8 = 130
    public static let fullLength = 2

    /// MAV_LANDED_STATE values.
    public enum LandedState: UInt8, Sendable {
        case undefined = 0, onGround = 1, inAir = 2, takeoff = 3, landing = 4
    }

    public var vtolState: UInt8
    /// Raw MAV_LANDED_STATE (see `LandedState`); kept raw so an unknown value is not a decode error.
    public var landedState: UInt8

    public init(vtolState: UInt8 = 0, landedState: LandedState) {
        self.vtolState = vtolState
        self.landedState = landedState.rawValue
    }

    public init(reading p: inout MAVLinkPayloadReader) {
        vtolState = p.read()
        landedState = p.read()
    }

    public func write(to p: inout MAVLinkPayloadWriter) {
        p.write(vtolState)
        p.write(landedState)
    }
}
