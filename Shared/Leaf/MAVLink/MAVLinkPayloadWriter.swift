/// Little-endian writes of one payload, in the wire order of the message's fields.
public struct MAVLinkPayloadWriter: Sendable {
    public private(set) var bytes: [UInt8] = []

    public init() {}

    public mutating func write<T: FixedWidthInteger>(_ value: T) {
        for index in 0..<MemoryLayout<T>.size { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * index))) }
    }

    public mutating func float(_ value: Float) { write(value.bitPattern) }

    /// Exactly `count` elements: missing ones are zeros, extra ones are dropped (a fixed-size wire array).
    public mutating func array<T: FixedWidthInteger>(_ values: [T], count: Int) {
        for index in 0..<count { write(index < values.count ? values[index] : T.zero) }
    }
}
