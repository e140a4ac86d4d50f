/// A strict, bounded JSON parser over bytes (RFC 8259, no extensions). Never traps on any input.
public struct JSONParser {
    public static let defaultMaxDepth = 32

    private let bytes: [UInt8]
    private var index = 0
    private let maxDepth: Int

    private init(bytes: [UInt8], maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    /// Parses exactly one JSON value, allowing surrounding whitespace.
    public static func parse(_ bytes: some Sequence<UInt8>, maxDepth: Int = defaultMaxDepth) throws(JSONParseError)
        -> JSONValue
    {
        var parser = JSONParser(bytes: Array(bytes), maxDepth: maxDepth)
        let value = try parser.parseValue(depth: 0)
        parser.skipWhitespace()
        if parser.index < parser.bytes.count { throw .trailingBytes(offset: parser.index) }
        return value
    }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipWhitespace() {
        while let b = current, b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D { index += 1 }
    }

    private mutating func expect(_ byte: UInt8, _ what: String) throws(JSONParseError) {
        guard let b = current else { throw .unexpectedEnd(expected: what) }
        guard b == byte else { throw .unexpectedByte(offset: index, expected: what, found: b) }
        index += 1
    }

    private mutating func parseValue(depth: Int) throws(JSONParseError) -> JSONValue {
        guard depth < maxDepth else { throw .nestingTooDeep(maxDepth: maxDepth) }
        skipWhitespace()
        guard let b = current else { throw .unexpectedEnd(expected: "a value") }
        switch b {
        case UInt8(ascii: "{"): return try parseObject(depth: depth)
        case UInt8(ascii: "["): return try parseArray(depth: depth)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try parseLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try parseLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try parseLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw .unexpectedByte(offset: index, expected: "a value", found: b)
        }
    }

    private mutating func parseLiteral(_ word: String) throws(JSONParseError) {
        for byte in word.utf8 { try expect(byte, word) }
    }

    private mutating func parseObject(depth: Int) throws(JSONParseError) -> JSONValue {
        index += 1  // {
        var members: [String: JSONValue] = [:]
        skipWhitespace()
        if current == UInt8(ascii: "}") { index += 1; return .object(members) }
        while true {
            skipWhitespace()
            try expect(UInt8(ascii: "\""), "a member name")
            index -= 1
            let key = try parseString()
            skipWhitespace()
            try expect(UInt8(ascii: ":"), "':'")
            members[key] = try parseValue(depth: depth + 1)
            skipWhitespace()
            guard let b = current else { throw .unexpectedEnd(expected: "',' or '}'") }
            index += 1
            if b == UInt8(ascii: "}") { return .object(members) }
            guard b == UInt8(ascii: ",") else { throw .unexpectedByte(offset: index - 1, expected: "',' or '}'", found: b) }
        }
    }

    private mutating func parseArray(depth: Int) throws(JSONParseError) -> JSONValue {
        index += 1  // [
        var elements: [JSONValue] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") { index += 1; return .array(elements) }
        while true {
            elements.append(try parseValue(depth: depth + 1))
            skipWhitespace()
            guard let b = current else { throw .unexpectedEnd(expected: "',' or ']'") }
            index += 1
            if b == UInt8(ascii: "]") { return .array(elements) }
            guard b == UInt8(ascii: ",") else { throw .unexpectedByte(offset: index - 1, expected: "',' or ']'", found: b) }
        }
    }

    private mutating func parseNumber() throws(JSONParseError) -> Double {
        let start = index
        func digits(_ p: inout JSONParser) -> Int {
            var n = 0
            while let b = p.current, b >= 0x30, b <= 0x39 { p.index += 1; n += 1 }
            return n
        }
        if current == UInt8(ascii: "-") { index += 1 }
        var ok = digits(&self) > 0
        if current == UInt8(ascii: ".") { index += 1; ok = ok && digits(&self) > 0 }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            ok = ok && digits(&self) > 0
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        // Double(String) is only reached with grammar-checked text, so "nan"/"inf"/hex never get through.
        guard ok, let value = Double(text) else { throw .invalidNumber(offset: start, text: text) }
        return value
    }

    private mutating func parseString() throws(JSONParseError) -> String {
        index += 1  // opening quote
        var scalars = String.UnicodeScalarView()
        var runStart = index
        func flushRun(_ p: JSONParser, upTo end: Int, into s: inout String.UnicodeScalarView) {
            s.append(contentsOf: String(decoding: p.bytes[runStart..<end], as: UTF8.self).unicodeScalars)
        }
        while true {
            guard let b = current else { throw .unexpectedEnd(expected: "'\"'") }
            if b == UInt8(ascii: "\"") {
                flushRun(self, upTo: index, into: &scalars)
                index += 1
                return String(scalars)
            }
            if b < 0x20 { throw .unexpectedByte(offset: index, expected: "a string character", found: b) }
            if b == UInt8(ascii: "\\") {
                flushRun(self, upTo: index, into: &scalars)
                scalars.append(try parseEscape())
                runStart = index
            } else {
                index += 1
            }
        }
    }

    private mutating func parseEscape() throws(JSONParseError) -> Unicode.Scalar {
        let escapeStart = index
        index += 1  // backslash
        guard let b = current else { throw .unexpectedEnd(expected: "an escape") }
        index += 1
        switch b {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            let high = try parseHex4(escapeStart)
            if (0xD800..<0xDC00).contains(high), current == UInt8(ascii: "\\"),
               index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u")
            {
                let save = index
                index += 2
                let low = try parseHex4(escapeStart)
                if (0xDC00..<0xE000).contains(low) {
                    return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)) ?? "\u{FFFD}"
                }
                index = save
            }
            // Lone surrogates become U+FFFD rather than an error: gpsd strings are informational.
            return Unicode.Scalar(high) ?? "\u{FFFD}"
        default:
            throw .invalidEscape(offset: escapeStart)
        }
    }

    private mutating func parseHex4(_ escapeStart: Int) throws(JSONParseError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let b = current else { throw .unexpectedEnd(expected: "4 hex digits") }
            let digit: UInt8
            switch b {
            case 0x30...0x39: digit = b - 0x30
            case 0x41...0x46: digit = b - 0x41 + 10
            case 0x61...0x66: digit = b - 0x61 + 10
            default: throw .invalidEscape(offset: escapeStart)
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }
}
