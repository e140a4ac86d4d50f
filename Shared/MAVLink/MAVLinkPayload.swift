/// Little-endian reads from a payload that the parser has already zero-extended to the message's full length
/// (MAVLink 2 drops trailing zeros; a MAVLink 1 sender knows no extension fields), so reads never run short.
public struct MAVLinkPayloadReader: Sendable {
    private let bytes: [UInt8]
    private var offset = 0

    public init(_ payload: [UInt8], fullLength: Int) {
        bytes = payload.count >= fullLength ? payload : payload + [UInt8](repeating: 0, count: fullLength - payload.count)
    }

    public mutating func read<T: FixedWidthInteger>(_: T.Type = T.self) -> T {
        var value = T.zero
        for index in 0..<MemoryLayout<T>.size where offset + index < bytes.count {
            value |= T(truncatingIfNeeded: bytes[offset + index]) << (8 * index)
        }
        offset += MemoryLayout<T>.size
        return value
    }

    public mutating func float() -> Float { Float(bitPattern: read(UInt32.self)) }
    public mutating func array<T: FixedWidthInteger>(_: T.Type, count: Int) -> [T] { (0..<count).map { _ in read() } }
}

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
