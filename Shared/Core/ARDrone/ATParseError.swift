/// Why (part of) an AT datagram was rejected. The simulator ignores such commands, as the drone does.
/// `argumentIndex` counts the arguments after the sequence number from 0 (−1 is the sequence field itself).
public enum ATParseError: Error, Equatable, Sendable {
    /// The firmware drops whole datagrams over 1024 bytes.
    case datagramTooLong(byteCount: Int, limit: Int)
    /// A non-ASCII or control byte (other than the CR/LF terminators); `offset` is within the datagram.
    case invalidByte(UInt8, offset: Int)
    /// Text after the last terminator: a command must end with CR (or LF).
    case missingTerminator(text: String)
    /// The command does not start with `AT*`.
    case missingPrefix(text: String)
    /// No `=` after the name.
    case missingEquals(text: String)
    /// A name outside `[A-Z0-9_]+`.
    case invalidName(String)
    /// The first field is not an unsigned decimal number that fits in 32 bits.
    case invalidSequence(command: String, text: String)
    /// A `"` with no closing `"`.
    case unterminatedQuote(command: String, argumentIndex: Int)
    /// A quoted string followed by more text, or a `"` inside an unquoted argument.
    case malformedArgument(command: String, argumentIndex: Int, text: String)
    case wrongArgumentCount(command: String, expected: ClosedRange<Int>, got: Int)
    /// Expected a decimal integer (from −2^31 to 2^32 − 1) and got something else.
    case nonIntegerArgument(command: String, argumentIndex: Int, text: String)
    /// Expected a double-quoted string.
    case unquotedStringArgument(command: String, argumentIndex: Int, text: String)
}

/// One command as received, with the sequence number the client gave it.
public struct ParsedATCommand: Sendable, Equatable {
    public var sequence: UInt32
    public var command: ATCommand

    public init(sequence: UInt32, command: ATCommand) {
        self.sequence = sequence
        self.command = command
    }
}
