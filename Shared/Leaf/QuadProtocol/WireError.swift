/// Why a payload (binary or text) was rejected. Every case names what was expected and what came.
public enum WireError: Error, Equatable, Sendable {
    // Header.
    /// Fewer bytes than the header needs (an empty payload has 0).
    case truncatedHeader(expectedBytes: Int, gotBytes: Int)
    /// The first byte is not 0xFF, so this is not a binary payload (UTF-8 text never contains 0xFF).
    case looksLikeText(firstByte: UInt8)
    case badMagic(expected: [UInt8], got: [UInt8])
    case unsupportedMajorVersion(expected: UInt8, got: UInt8)
    case unknownMessageType(got: UInt8)
    case wrongMessageType(expected: MessageType, got: MessageType)

    // Body.
    case bodyTooShort(type: MessageType, expectedAtLeastBytes: Int, gotBytes: Int)
    /// Extra bytes after the known layout while the minor version is ours (a newer minor may add them).
    case bodyTooLong(type: MessageType, expectedBytes: Int, gotBytes: Int)
    /// Presence bits set for optional fields this minor version does not have.
    case unknownPresenceBits(type: MessageType, expectedMask: UInt8, got: UInt8)
    case invalidBool(field: String, got: UInt8)
    case unknownEnumValue(field: String, expected: [UInt8], got: UInt8)
    case invalidUTF8(field: String)
    case stringLength(field: String, expectedBytes: ClosedRange<Int>, gotBytes: Int)
    /// NaN or ±infinity; `got` is "nan", "+inf" or "-inf".
    case notFinite(field: String, got: String)
    /// `expected` is the interval in mathematical notation, e.g. "[-90, 90]" or "[0, 360)".
    case outOfRange(field: String, expected: String, got: Double)

    // Text forms.
    case invalidJSON(offset: Int, reason: String)
    case wrongJSONType(key: String, expected: String, got: String)
    case missingJSONKey(String)
    case unknownJSONKey(expected: [String], got: String)
    case duplicateJSONKey(String)
    case unknownCommandWord(expected: [String], got: String)
}

extension WireError: CustomStringConvertible {
    public var description: String {
        switch self {
        case let .truncatedHeader(expected, got): "header needs \(expected) bytes, got \(got)"
        case let .looksLikeText(first):
            "expected binary (first byte 0xFF), got first byte \(hex(first)): looks like text"
        case let .badMagic(expected, got): "expected magic \(hexList(expected)), got \(hexList(got))"
        case let .unsupportedMajorVersion(expected, got): "expected format major \(expected), got \(got)"
        case let .unknownMessageType(got): "unknown message type \(got)"
        case let .wrongMessageType(expected, got): "expected message type \(expected), got \(got)"
        case let .bodyTooShort(type, expected, got): "\(type) body needs at least \(expected) bytes, got \(got)"
        case let .bodyTooLong(type, expected, got): "\(type) body is \(expected) bytes at this minor, got \(got)"
        case let .unknownPresenceBits(type, mask, got):
            "\(type) presence bits must be within \(hex(mask)), got \(hex(got))"
        case let .invalidBool(field, got): "\(field): expected 0 or 1, got \(got)"
        case let .unknownEnumValue(field, expected, got): "\(field): expected one of \(expected), got \(got)"
        case let .invalidUTF8(field): "\(field): expected UTF-8, got invalid bytes"
        case let .stringLength(field, expected, got):
            "\(field): expected \(expected.lowerBound)–\(expected.upperBound) bytes, got \(got)"
        case let .notFinite(field, got): "\(field): expected a finite number, got \(got)"
        case let .outOfRange(field, expected, got): "\(field): expected \(expected), got \(got)"
        case let .invalidJSON(offset, reason): "invalid JSON at byte \(offset): \(reason)"
        case let .wrongJSONType(key, expected, got): "\"\(key)\": expected \(expected), got \(got)"
        case let .missingJSONKey(key): "missing key \"\(key)\""
        case let .unknownJSONKey(expected, got): "unknown key \"\(got)\", expected one of \(expected)"
        case let .duplicateJSONKey(key): "key \"\(key)\" appears twice"
        case let .unknownCommandWord(expected, got): "expected one of \(expected), got \"\(got)\""
        }
    }
}

private func hex(_ byte: UInt8) -> String {
    let digits = Array("0123456789ABCDEF")
    return "0x" + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 0x0F)])
}

private func hexList(_ bytes: [UInt8]) -> String { bytes.map(hex).joined(separator: " ") }
