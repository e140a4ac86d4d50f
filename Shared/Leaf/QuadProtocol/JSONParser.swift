/// The project's one strict JSON (RFC 8259) parser for untrusted text: target payloads, presence status, gpsd
/// lines. Errors carry the byte offset; no input traps. Foundation stays off the drone board this way.
struct JSONParser {
    /// Deep nesting is never legitimate on the bus and would otherwise risk the stack.
    static let defaultMaxDepth = 16

    private let bytes: [UInt8]
    private let maxDepth: Int
    private let invalidText: JSONValue.InvalidText
    private var offset = 0
    private var depth = 0

    init(bytes: [UInt8], maxDepth: Int = defaultMaxDepth, invalidText: JSONValue.InvalidText = .reject) {
        self.bytes = bytes
        self.maxDepth = maxDepth
        self.invalidText = invalidText
    }

    mutating func parseDocument() throws(WireError) -> JSONValue {
        skipWhitespace()
        let value = try parseValue()
        skipWhitespace()
        guard offset == bytes.count else { throw fail("unexpected text after the value") }
        return value
    }

    private mutating func parseValue() throws(WireError) -> JSONValue {
        guard let byte = peek() else { throw fail("expected a value, got end of input") }
        switch byte {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw fail("unexpected character")
        }
    }

    private mutating func parseObject() throws(WireError) -> JSONValue {
        try enter()
        offset += 1
        var members: [(key: String, value: JSONValue)] = []
        skipWhitespace()
        if peek() == UInt8(ascii: "}") { offset += 1; depth -= 1; return .object(members) }
        while true {
            skipWhitespace()
            guard peek() == UInt8(ascii: "\"") else { throw fail("expected a key string") }
            let key = try parseString()
            skipWhitespace()
            try expect(":")
            skipWhitespace()
            members.append((key, try parseValue()))
            skipWhitespace()
            if peek() == UInt8(ascii: ",") { offset += 1; continue }
            try expect("}")
            depth -= 1
            return .object(members)
        }
    }

    private mutating func parseArray() throws(WireError) -> JSONValue {
        try enter()
        offset += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if peek() == UInt8(ascii: "]") { offset += 1; depth -= 1; return .array(elements) }
        while true {
            skipWhitespace()
            elements.append(try parseValue())
            skipWhitespace()
            if peek() == UInt8(ascii: ",") { offset += 1; continue }
            try expect("]")
            depth -= 1
            return .array(elements)
        }
    }

    private mutating func parseString() throws(WireError) -> String {
        offset += 1
        var scalars = String.UnicodeScalarView()
        var raw: [UInt8] = []  // unescaped UTF-8 run, validated when flushed
        let invalidText = invalidText
        func flush(_ raw: inout [UInt8], into scalars: inout String.UnicodeScalarView, at offset: Int)
            throws(WireError) {
            if let text = String(validating: raw, as: UTF8.self) {
                scalars.append(contentsOf: text.unicodeScalars)
            } else if invalidText == .replace {
                scalars.append(contentsOf: String(decoding: raw, as: UTF8.self).unicodeScalars)
            } else {
                throw .invalidJSON(offset: offset, reason: "invalid UTF-8 in string")
            }
            raw.removeAll(keepingCapacity: true)
        }
        while let byte = peek() {
            offset += 1
            switch byte {
            case UInt8(ascii: "\""):
                try flush(&raw, into: &scalars, at: offset)
                return String(scalars)
            case UInt8(ascii: "\\"):
                try flush(&raw, into: &scalars, at: offset)
                scalars.append(try parseEscape())
            case 0..<0x20: throw fail("control character in string")
            default: raw.append(byte)
            }
        }
        throw fail("unterminated string")
    }

    private mutating func parseEscape() throws(WireError) -> Unicode.Scalar {
        guard let byte = peek() else { throw fail("unterminated escape") }
        offset += 1
        switch byte {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            let unit = try hex4()
            if invalidText == .replace { return try replacingLoneSurrogate(unit) }
            if (0xD800..<0xDC00).contains(unit) {
                guard peek() == UInt8(ascii: "\\") else { throw fail("lone surrogate") }
                offset += 1
                try expect("u")
                let low = try hex4()
                guard (0xDC00..<0xE000).contains(low) else { throw fail("lone surrogate") }
                let value = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                if let scalar = Unicode.Scalar(value) { return scalar }
            } else if let scalar = Unicode.Scalar(unit) {
                return scalar
            }
            throw fail("lone surrogate")
        default: throw fail("unknown escape")
        }
    }

    /// The lenient reading of `\uXXXX`: a pair joins, anything lone becomes U+FFFD and the next escape is read
    /// on its own.
    private mutating func replacingLoneSurrogate(_ unit: UInt32) throws(WireError) -> Unicode.Scalar {
        if (0xD800..<0xDC00).contains(unit), peek() == UInt8(ascii: "\\"), offset + 1 < bytes.count,
           bytes[offset + 1] == UInt8(ascii: "u") {
            let save = offset
            offset += 2
            let low = try hex4()
            if (0xDC00..<0xE000).contains(low) {
                return Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)) ?? "\u{FFFD}"
            }
            offset = save
        }
        return Unicode.Scalar(unit) ?? "\u{FFFD}"
    }

    private mutating func hex4() throws(WireError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = peek(), let digit = Self.hexDigit(byte) else { throw fail("expected 4 hex digits") }
            offset += 1
            value = value << 4 | digit
        }
        return value
    }

    private mutating func parseNumber() throws(WireError) -> Double {
        let start = offset
        if peek() == UInt8(ascii: "-") { offset += 1 }
        if peek() == UInt8(ascii: "0") {
            offset += 1
        } else {
            guard digits() > 0 else { throw fail("expected digits") }
        }
        if peek() == UInt8(ascii: ".") {
            offset += 1
            guard digits() > 0 else { throw fail("expected digits after '.'") }
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            offset += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { offset += 1 }
            guard digits() > 0 else { throw fail("expected exponent digits") }
        }
        // The grammar above admits only what Double(String) reads as the same number.
        guard let text = String(validating: bytes[start..<offset], as: UTF8.self), let value = Double(text) else {
            throw fail("bad number")
        }
        return value
    }

    private mutating func digits() -> Int {
        var count = 0
        while let byte = peek(), (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
            offset += 1
            count += 1
        }
        return count
    }

    private mutating func literal(_ word: String) throws(WireError) {
        for expected in word.utf8 {
            guard peek() == expected else { throw fail("expected \(word)") }
            offset += 1
        }
    }

    private mutating func expect(_ character: Unicode.Scalar) throws(WireError) {
        guard peek() == UInt8(ascii: character) else { throw fail("expected '\(character)'") }
        offset += 1
    }

    private mutating func enter() throws(WireError) {
        depth += 1
        guard depth <= maxDepth else { throw fail("nested deeper than \(maxDepth)") }
    }

    private mutating func skipWhitespace() {
        while let byte = peek(), [0x20, 0x09, 0x0A, 0x0D].contains(byte) { offset += 1 }
    }

    private func peek() -> UInt8? { offset < bytes.count ? bytes[offset] : nil }
    private func fail(_ reason: String) -> WireError { .invalidJSON(offset: offset, reason: reason) }

    private static func hexDigit(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }
}
