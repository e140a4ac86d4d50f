/// Parses AT datagrams as the drone receives them (for the simulator).
///
/// Tolerant of what real clients send: CR terminators (the firmware's), LF or CRLF too (seen in the wild),
/// REF values with or without the 0x11540000 base, sequence 0 (node-ar-drone starts there), `AT*CTRL=n,mode`
/// without the trailing 0 (cvdrone), a trailing comma, integers printed unsigned, and unknown but well-formed
/// commands (PMODE, MISC, …) as `.other`. Strict about malformed text: every other deviation is a typed error
/// for that command only; the rest of the datagram still parses. Never traps on any input.
public enum ATParser {
    public static let maxDatagramBytes = ATSyntax.maxDatagramBytes

    /// One result per command in the datagram, in order. Empty lines (e.g. from CRLF) are skipped.
    public static func parse(datagram: [UInt8]) -> [Result<ParsedATCommand, ATParseError>] {
        guard datagram.count <= maxDatagramBytes else {
            return [.failure(.datagramTooLong(byteCount: datagram.count, limit: maxDatagramBytes))]
        }
        var results: [Result<ParsedATCommand, ATParseError>] = []
        var start = 0
        for index in datagram.indices where datagram[index] == ATSyntax.carriageReturn
            || datagram[index] == ATSyntax.lineFeed
        {
            if index > start {
                results.append(parseCommand(datagram[start..<index]))
            }
            start = index + 1
        }
        if start < datagram.count {
            let rest = datagram[start...]
            if let bad = firstInvalidByte(rest) {
                results.append(.failure(bad))
            } else {
                results.append(.failure(.missingTerminator(text: text(rest))))
            }
        }
        return results
    }

    /// One command without its terminator; indices are datagram offsets.
    static func parseCommand(_ bytes: ArraySlice<UInt8>) -> Result<ParsedATCommand, ATParseError> {
        if let bad = firstInvalidByte(bytes) { return .failure(bad) }
        let prefix: [UInt8] = Array("AT*".utf8)
        guard bytes.starts(with: prefix) else { return .failure(.missingPrefix(text: text(bytes))) }
        let afterPrefix = bytes.dropFirst(prefix.count)
        guard let equals = afterPrefix.firstIndex(of: ATSyntax.equals) else {
            return .failure(.missingEquals(text: text(bytes)))
        }
        let name = text(afterPrefix[..<equals])
        guard ATSyntax.isValidName(name) else { return .failure(.invalidName(name)) }
        return Result { () throws(ATParseError) -> ParsedATCommand in
            var fields = try ATFieldSplitter.split(bytes[(equals + 1)...], command: name)
            let sequenceField = fields.removeFirst()
            guard case .bare(let sequenceText) = sequenceField, let sequence = parseSequence(sequenceText) else {
                throw .invalidSequence(command: name, text: sequenceField.text)
            }
            // A trailing comma leaves one empty field; some clients write "AT*FTRIM=n,".
            if fields.last == .bare("") {
                fields.removeLast()
            }
            let command = try ATArgumentDecoder(name: name, fields: fields).command()
            return ParsedATCommand(sequence: sequence, command: command)
        }
    }

    private static func firstInvalidByte(_ bytes: ArraySlice<UInt8>) -> ATParseError? {
        guard let index = bytes.firstIndex(where: { !ATSyntax.isPrintable($0) }) else { return nil }
        return .invalidByte(bytes[index], offset: index)
    }

    private static func parseSequence(_ text: String) -> UInt32? {
        guard !text.isEmpty, text.utf8.allSatisfy(ATSyntax.isDigit) else { return nil }
        return UInt32(text)
    }

    static func text(_ bytes: ArraySlice<UInt8>) -> String {
        String(decoding: bytes, as: UTF8.self)
    }
}
