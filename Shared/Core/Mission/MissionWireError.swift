/// Why a mission payload was refused. A payload that decodes but carries a plan the rules refuse is `.plan`.
public enum MissionWireError: Error, Equatable, Sendable {
    case truncated(neededBytes: Int, gotBytes: Int)
    case badMagic(got: [UInt8])
    case unsupportedMajor(got: UInt8)
    case wrongKind(expected: UInt8, got: UInt8)
    /// Bytes after the layout of this minor (a newer minor's are ignored).
    case trailingBytes(Int)
    case unknownEnumValue(field: String, got: UInt8)
    case invalidUTF8(field: String)
    case stringLength(field: String, gotBytes: Int)
    case notFinite(field: String)
    case outOfRange(field: String, got: Double, expected: String)
    /// The upload's CRC-32 is not that of its plan: damaged, or built by a broken encoder.
    case checksumMismatch(stated: UInt32, computed: UInt32)
    /// The plan's bytes are not its canonical encoding (a slot an item does not use is not zero).
    case notCanonical(item: Int)
    case plan(MissionPlanError)
}

extension MissionWireError: CustomStringConvertible {
    public var description: String {
        switch self {
        case let .truncated(needed, got): "truncated: \(needed) bytes needed, \(got) present"
        case let .badMagic(got): "bad magic \(got) (expected [255, 77])"
        case let .unsupportedMajor(got): "format major \(got), this side knows 1"
        case let .wrongKind(expected, got): "payload kind \(got), expected \(expected)"
        case let .trailingBytes(count): "\(count) bytes after the last field"
        case let .unknownEnumValue(field, got): "\(field): unknown value \(got)"
        case let .invalidUTF8(field): "\(field) is not UTF-8"
        case let .stringLength(field, got): "\(field): \(got) bytes, expected 1–64"
        case let .notFinite(field): "\(field) is not a finite number"
        case let .outOfRange(field, got, expected): "\(field) \(got) is outside \(expected)"
        case let .checksumMismatch(stated, computed): "checksum \(stated) stated, \(computed) computed"
        case let .notCanonical(item): "item \(item): an unused field is not zero"
        case let .plan(error): "plan refused: \(error)"
        }
    }
}
