/// Values for the `AT*REF` bit field (SDK `ardrone_ui_bitfield_t`).
///
/// Only bits 8 (emergency toggle) and 9 (take off / stay flying) mean anything on an AR.Drone 2.0. The base
/// 0x11540000 sets the low bit of five legacy 2-bit trim/pad fields that store "value + 1"; sending plain 0
/// puts −1 in them, which corrupted trims on the AR.Drone 1.0, so always include the base.
public enum ATRef {
    /// Bits 18, 20, 22, 24 and 28: the neutral legacy fields. Alone it means "land / stay landed".
    public static let base: Int32 = 0x1154_0000
    /// Bit 9 (START): 1 = take off and keep flying, 0 = land. Level-triggered: send it on every tick.
    public static let takeoffBit: Int32 = 1 << 9
    /// Bit 8 (SELECT): toggles emergency. Cuts the motors in flight; send only while navdata bit 31 is set.
    public static let emergencyBit: Int32 = 1 << 8

    /// 290717696.
    public static let land: Int32 = base
    /// 290718208.
    public static let takeoff: Int32 = base | takeoffBit
    /// 290717952.
    public static let emergency: Int32 = base | emergencyBit

    /// The REF value for the given switches, always with the base bits.
    public static func value(takeoff: Bool, emergency: Bool) -> Int32 {
        base | (takeoff ? takeoffBit : 0) | (emergency ? emergencyBit : 0)
    }
}
