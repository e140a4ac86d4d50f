/// Numbers AT commands and packs them into datagrams.
///
/// The drone ignores any command whose number is not greater than the last one it accepted, and a command
/// numbered 1 resets its counter, so numbering starts at 1 and `reset()` goes back to 1 after a reconnect.
public struct ATSequencer: Sendable, Equatable {
    /// The firmware drops whole datagrams longer than this many bytes.
    public static let maxDatagramBytes = ATSyntax.maxDatagramBytes

    /// The number the next command will get.
    public private(set) var nextSequence: UInt32 = 1

    /// Starts at 1 unless told otherwise (tests, or resuming a counter the drone already accepted).
    public init(nextSequence: UInt32 = 1) {
        self.nextSequence = nextSequence
    }

    /// Start again at 1 (after a reconnect or a silence of 2 s, when the drone has reset its own counter).
    public mutating func reset() {
        nextSequence = 1
    }

    /// Numbers `commands` consecutively and concatenates them into as few datagrams as possible, in order,
    /// never splitting a command and never exceeding `maxDatagramBytes` per datagram.
    ///
    /// All or nothing: if any command is invalid (`ATCommand.validate()`) or longer than a datagram on its
    /// own, it throws and the sequencer is unchanged.
    public mutating func pack(_ commands: [ATCommand]) throws(ATEncodingError) -> [[UInt8]] {
        var numbering = self
        var encoded: [[UInt8]] = []
        encoded.reserveCapacity(commands.count)
        for command in commands {
            try command.validate()
            let bytes = Array(command.encoded(sequence: numbering.takeSequence()).utf8)
            guard bytes.count <= Self.maxDatagramBytes else {
                throw .commandTooLong(command: command.name, byteCount: bytes.count, limit: Self.maxDatagramBytes)
            }
            encoded.append(bytes)
        }
        self = numbering

        var datagrams: [[UInt8]] = []
        var current: [UInt8] = []
        for bytes in encoded {
            if current.count + bytes.count > Self.maxDatagramBytes {
                datagrams.append(current)
                current = []
            }
            current += bytes
        }
        if !current.isEmpty {
            datagrams.append(current)
        }
        return datagrams
    }

    /// Wrap-around is undocumented; the firmware prints the counter with `%d`, so stay within Int32 and
    /// restart at 1 (which resets the drone's counter too). At 100 commands/s that takes about 248 days.
    private mutating func takeSequence() -> UInt32 {
        let sequence = nextSequence
        nextSequence = sequence >= UInt32(Int32.max) ? 1 : sequence + 1
        return sequence
    }
}
