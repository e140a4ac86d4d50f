#if canImport(Glibc)
import Glibc
#endif

/// A broadcaster's sender id. It is also the last level of its presence topic `quad/<id>/status/<sender-id>`,
/// so it must be one plain topic level: 1–64 characters of a-z, 0-9 and '-'.
enum SenderID {
    static let maxLength = 64

    enum ValidationError: Error, Equatable, CustomStringConvertible {
        case empty
        case tooLong(length: Int)
        case invalidCharacter(Character)

        var description: String {
            switch self {
            case .empty: "is empty (expected 1–64 characters of a-z, 0-9 and '-')"
            case .tooLong(let n): "is \(n) characters long (expected at most \(SenderID.maxLength))"
            case .invalidCharacter(let c): "contains '\(c)' (expected only a-z, 0-9 and '-')"
            }
        }
    }

    static func validated(_ text: String) throws(ValidationError) -> String {
        guard !text.isEmpty else { throw .empty }
        guard text.count <= maxLength else { throw .tooLong(length: text.count) }
        if let bad = text.first(where: { !isAllowed($0) }) { throw .invalidCharacter(bad) }
        return text
    }

    /// `location-broadcaster-<hostname>` with the host name lower-cased and everything else turned into '-'.
    static func defaultValue(hostname: String) -> String {
        var sanitised = ""
        for c in hostname.lowercased() {
            let next: Character = isAllowed(c) ? c : "-"
            if next == "-", sanitised.hasSuffix("-") || sanitised.isEmpty { continue }
            sanitised.append(next)
        }
        while sanitised.hasSuffix("-") { sanitised.removeLast() }
        let prefix = "location-broadcaster"
        guard !sanitised.isEmpty else { return prefix }
        return String((prefix + "-" + sanitised).prefix(maxLength))
    }

    static func hostname() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func isAllowed(_ c: Character) -> Bool {
        c.isASCII && (c.isLowercase || c.isNumber || c == "-")
    }
}
