extension ATCommand {
    /// The full command text with its CR terminator, e.g. `AT*PCMD=5,1,0,-1102263091,0,1036831949\r`.
    ///
    /// Pure formatting: call `validate()` (the sequencer does) before sending text built from outside input.
    public func encoded(sequence: UInt32) -> String {
        var text = "AT*\(name)=\(sequence)"
        for argument in arguments {
            switch argument {
            case .integer(let value): text += ",\(value)"
            case .string(let value): text += ",\"\(value)\""
            }
        }
        return text + "\r"
    }

    /// Checks that the command can be written so the drone parses it as intended: names are upper-case
    /// letters, digits and `_`; strings are printable ASCII without `"` (the syntax has no escapes).
    /// `ATSequencer.pack` also checks that each command fits in one datagram.
    public func validate() throws(ATEncodingError) {
        guard ATSyntax.isValidName(name) else { throw .invalidName(name) }
        for case .string(let value) in arguments {
            guard value.utf8.allSatisfy(ATSyntax.isStringByte) else {
                throw .invalidStringCharacter(command: name, text: value)
            }
        }
    }
}

/// Why a command cannot be encoded.
public enum ATEncodingError: Error, Equatable, Sendable {
    /// A name outside `[A-Z0-9_]+`.
    case invalidName(String)
    /// A quoted argument containing `"`, a control character or non-ASCII text.
    case invalidStringCharacter(command: String, text: String)
    /// The command alone would not fit in one datagram.
    case commandTooLong(command: String, byteCount: Int, limit: Int)
}
