/// Why a log-sync request or response payload was refused before its content was looked at.
public enum SyncWireError: Error, Equatable, Sendable, CustomStringConvertible {
    case truncated(neededBytes: Int, gotBytes: Int)
    case badMagic(expected: [UInt8], got: [UInt8])
    case unsupportedVersion(expected: UInt8, got: UInt8)
    case invalidUTF8(field: String)
    /// A count or length outside its documented limits.
    case outOfRange(field: String, expected: String, got: Int)
    /// A field that must be one of a few values.
    case invalidValue(field: String, got: Int)
    case invalidRequester(String)
    /// A topic path a board logger does not serve (not `telemetry/<name>`).
    case notSyncable(path: String)
    /// first > last, or notBefore > notAfter.
    case emptyRange(path: String)
    case trailingBytes(Int)
    /// The record bytes of a response are damaged (CRC, length) or their count differs from the header's.
    case damagedRecords(expected: Int, got: Int)

    public var description: String {
        switch self {
        case let .truncated(needed, got): "truncated: \(needed) bytes needed, \(got) present"
        case let .badMagic(expected, got): "bad magic \(Self.hex(got)) (expected \(Self.hex(expected)))"
        case let .unsupportedVersion(expected, got): "version \(got), this side knows \(expected)"
        case let .invalidUTF8(field): "\(field) is not UTF-8"
        case let .outOfRange(field, expected, got): "\(field) \(got) outside \(expected)"
        case let .invalidValue(field, got): "\(field) \(got) is not a known value"
        case let .invalidRequester(name): "requester '\(name.prefix(80))' is not [a-z0-9-]{1,64}"
        case let .notSyncable(path): "'\(path.prefix(80))' is not a telemetry topic path"
        case let .emptyRange(path): "empty range on \(path.prefix(80))"
        case let .trailingBytes(count): "\(count) bytes after the last field"
        case let .damagedRecords(expected, got): "\(got) intact records where the header announces \(expected)"
        }
    }

    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16, uppercase: true) }.joined(separator: " ")
    }
}
