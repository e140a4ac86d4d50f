/// Little-endian reads from a payload that the parser has already zero-extended to the message's full length
/// (MAVLink 2 drops trailing zeros; a MAVLink 1 sender knows no extension fields), so reads never run short.
public struct MAVLinkPayloadReader: Sendable {
    private let bytes: [UInt8]
    private var offset = 0

    public init(_ payload: [UInt8], fullLength: Int) {
        bytes = payload.count >= fullLength ? payload : payload + [UInt8](repeating: 0,
            count: fullLength - payload.count)
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
