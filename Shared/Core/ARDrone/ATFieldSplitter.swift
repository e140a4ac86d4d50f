/// One comma-separated field of an AT command.
enum ATField: Equatable {
    /// Unquoted text (a number, if well-formed).
    case bare(String)
    /// The contents of a double-quoted string.
    case quoted(String)

    var text: String {
        switch self {
        case .bare(let text): text
        case .quoted(let text): "\"\(text)\""
        }
    }
}

/// Splits the text after `=` at commas outside quotes. Strings have no escapes: a `"` always ends one.
enum ATFieldSplitter {
    /// Always returns at least one field (the sequence number position).
    static func split(_ bytes: ArraySlice<UInt8>, command: String) throws(ATParseError) -> [ATField] {
        var fields: [ATField] = []
        var index = bytes.startIndex
        while true {
            // Argument index counts after the sequence number, which is field 0.
            let argumentIndex = fields.count - 1
            if index < bytes.endIndex, bytes[index] == ATSyntax.quote {
                let contentStart = index + 1
                guard let close = bytes[contentStart...].firstIndex(of: ATSyntax.quote) else {
                    throw .unterminatedQuote(command: command, argumentIndex: argumentIndex)
                }
                let fieldEnd = bytes[close...].firstIndex(of: ATSyntax.comma) ?? bytes.endIndex
                guard fieldEnd == close + 1 else {
                    throw .malformedArgument(command: command, argumentIndex: argumentIndex,
                                             text: ATParser.text(bytes[index..<fieldEnd]))
                }
                fields.append(.quoted(ATParser.text(bytes[contentStart..<close])))
                index = fieldEnd
            } else {
                let fieldEnd = bytes[index...].firstIndex(of: ATSyntax.comma) ?? bytes.endIndex
                let field = bytes[index..<fieldEnd]
                guard !field.contains(ATSyntax.quote) else {
                    throw .malformedArgument(command: command, argumentIndex: argumentIndex,
                                             text: ATParser.text(field))
                }
                fields.append(.bare(ATParser.text(field)))
                index = fieldEnd
            }
            guard index < bytes.endIndex else { return fields }
            index += 1  // skip the comma; a comma at the very end yields a final empty field
        }
    }
}
