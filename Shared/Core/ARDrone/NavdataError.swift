/// Why a navdata datagram was rejected. The caller drops the datagram and counts the error.
public enum NavdataError: Error, Equatable, Sendable {
    /// Shorter than a header plus the checksum option (24 bytes).
    case tooShort(byteCount: Int, minimum: Int)
    /// Longer than the firmware's NAVDATA_MAX_SIZE (4096 bytes).
    case tooLong(byteCount: Int, maximum: Int)
    /// The first word is neither 0x55667788 nor 0x55667789.
    case badMagic(got: UInt32)
    /// Fewer than 4 bytes left where an option header should start.
    case truncatedOptionHeader(offset: Int, remaining: Int)
    /// An option whose size (which includes its 4-byte header) is below 4, e.g. 0; walking on would loop.
    case optionTooSmall(tag: UInt16, size: UInt16)
    /// An option that runs past the end of the datagram.
    case optionOverruns(tag: UInt16, size: UInt16, remaining: Int)
    /// A known option (demo, time, magneto, wifi) too short for its layout.
    case optionShorterThanLayout(tag: UInt16, size: UInt16, required: Int)
    /// The checksum option must be exactly 8 bytes.
    case badChecksumOptionSize(size: UInt16)
    /// The checksum option must be the last thing in the datagram.
    case bytesAfterChecksum(count: Int)
    /// `expected` is the value in the packet, `computed` the byte sum we got.
    case checksumMismatch(expected: UInt32, computed: UInt32)
    /// No checksum option. Real drones always send one (bootstrap packets too), so a datagram without it
    /// is treated as corrupt rather than trusted unverified.
    case missingChecksum
}
