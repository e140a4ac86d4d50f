/// Start and end tags of XML-ish bytes (GPX routes, KML zones), with their attributes, the line each starts on and the
/// text before each tag. A small tolerant reader, not an XML parser: comments, processing instructions and
/// declarations are skipped, a CDATA section's content is text, namespace prefixes are dropped (`gpx:wpt` → `wpt`),
/// entities are left as they are. Nesting is the caller's to check (each format says what it expects). What it
/// refuses: a construct that never ends (`Unterminated`, with the line it began on).
public struct XMLScanner {
    public struct Tag: Sendable, Equatable {
        /// The local name (without a namespace prefix).
        public var name: String
        public var isClosing: Bool
        /// `<wpt …/>`: opens and closes at once.
        public var isSelfClosing: Bool
        public var attributes: [String: String]
        public var line: Int
        /// The text between the previous tag and this one (an element's content, for its closing tag).
        public var textBefore: String
    }

    /// A comment, CDATA section, processing instruction, declaration, tag or quoted attribute value that never ends.
    public struct Unterminated: Error, Sendable, Equatable {
        public var line: Int
        /// "comment", "CDATA section", "processing instruction", "declaration", "tag", "quoted attribute value".
        public var construct: String
    }

    private let bytes: [UInt8]
    private var index = 0
    private var line = 1
    private var text: [UInt8] = []

    public init(bytes: [UInt8]) { self.bytes = bytes }

    public mutating func nextTag() throws(Unterminated) -> Tag? {
        while index < bytes.count {
            if bytes[index] != UInt8(ascii: "<") {
                text.append(bytes[index])
                advance()
                continue
            }
            if hasPrefix("<!--") {
                try skip(past: "-->", construct: "comment")
            } else if hasPrefix("<![CDATA[") {
                index += 9
                let start = index
                try skip(past: "]]>", construct: "CDATA section")
                text += bytes[start..<(index - 3)]
            } else if hasPrefix("<?") {
                try skip(past: "?>", construct: "processing instruction")
            } else if hasPrefix("<!") {
                try skip(past: ">", construct: "declaration")
            } else {
                return try readTag()
            }
        }
        return nil
    }

    private mutating func advance() {
        if bytes[index] == UInt8(ascii: "\n") { line += 1 }
        index += 1
    }

    private func hasPrefix(_ s: String) -> Bool {
        bytes[index...].starts(with: s.utf8)
    }

    private mutating func skip(past terminator: String, construct: String) throws(Unterminated) {
        let startLine = line
        while index < bytes.count {
            if hasPrefix(terminator) {
                index += terminator.utf8.count
                return
            }
            advance()
        }
        throw Unterminated(line: startLine, construct: construct)
    }

    /// At `<`: reads up to the matching `>`, skipping `>` inside quoted attribute values.
    private mutating func readTag() throws(Unterminated) -> Tag {
        let startLine = line
        index += 1
        let start = index
        var quote: UInt8?
        while index < bytes.count {
            let b = bytes[index]
            if let q = quote {
                if b == q { quote = nil }
            } else if b == UInt8(ascii: "\"") || b == UInt8(ascii: "'") {
                quote = b
            } else if b == UInt8(ascii: ">") {
                let body = bytes[start..<index]
                index += 1
                defer { text = [] }
                return Self.tag(body, line: startLine, textBefore: String(decoding: text, as: UTF8.self))
            }
            advance()
        }
        throw Unterminated(line: startLine, construct: quote == nil ? "tag" : "quoted attribute value")
    }

    private static func tag(_ body: ArraySlice<UInt8>, line: Int, textBefore: String) -> Tag {
        var rest = body
        let isClosing = rest.first == UInt8(ascii: "/")
        if isClosing { rest = rest.dropFirst() }
        let nameBytes = rest.prefix { !isSpace($0) && $0 != UInt8(ascii: "/") }
        rest = rest.dropFirst(nameBytes.count)
        let isSelfClosing = body.last { !isSpace($0) } == UInt8(ascii: "/")
        return Tag(name: localName(nameBytes), isClosing: isClosing, isSelfClosing: isSelfClosing,
                   attributes: attributes(rest), line: line, textBefore: textBefore)
    }

    private static func attributes(_ body: ArraySlice<UInt8>) -> [String: String] {
        var result: [String: String] = [:]
        var rest = body
        while true {
            rest = rest.drop { isSpace($0) || $0 == UInt8(ascii: "/") }
            let name = rest.prefix { !isSpace($0) && $0 != UInt8(ascii: "=") }
            guard !name.isEmpty else { return result }
            rest = rest.dropFirst(name.count).drop(while: isSpace)
            guard rest.first == UInt8(ascii: "=") else { continue }  // attribute without value: ignore
            rest = rest.dropFirst().drop(while: isSpace)
            guard let q = rest.first, q == UInt8(ascii: "\"") || q == UInt8(ascii: "'") else {
                rest = rest.drop { !isSpace($0) }  // unquoted value: not XML, ignore it
                continue
            }
            rest = rest.dropFirst()
            let value = rest.prefix { $0 != q }
            rest = rest.dropFirst(value.count + 1)
            result[localName(name)] = String(decoding: value, as: UTF8.self)
        }
    }

    /// `gpx:wpt` → `wpt`.
    private static func localName(_ bytes: ArraySlice<UInt8>) -> String {
        let local = bytes.lastIndex(of: UInt8(ascii: ":")).map { bytes[($0 + 1)...] } ?? bytes
        return String(decoding: local, as: UTF8.self)
    }

    private static func isSpace(_ b: UInt8) -> Bool {
        b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D
    }
}
