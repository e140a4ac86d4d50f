/// AT commands carry floats as the decimal of the signed 32-bit integer with the same bits as the IEEE-754
/// single-precision value (0.5 → 1056964608, −0.8 → −1085485875). Converting through `bitPattern` is the
/// well-defined equivalent of the C union trick; never cast the value numerically.
public enum ATFloat {
    /// The signed int32 whose bits equal `value`'s Float32 bit pattern.
    public static func encode(_ value: Float) -> Int32 {
        Int32(bitPattern: value.bitPattern)
    }

    /// The Float32 whose bit pattern equals `wireValue`'s bits.
    public static func decode(_ wireValue: Int32) -> Float {
        Float(bitPattern: UInt32(bitPattern: wireValue))
    }
}
