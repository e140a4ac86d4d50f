/// Splits a byte stream from gpsd into lines. Bytes arrive in arbitrary chunks; a line may span chunks. A line
/// longer than `maxLineBytes` is dropped whole (up to its newline) and reported, so a broken or hostile peer
/// cannot make the buffer grow without bound.
public struct GPSDLineBuffer: Sendable {
    public enum Item: Sendable, Equatable {
        /// One complete line without `\n` or a trailing `\r`; never empty.
        case line([UInt8])
        /// A line that exceeded the cap; `byteCount` is how many bytes were discarded (saturating).
        case overlong(byteCount: Int)
    }

    /// gpsd's longest reports (SKY with many satellites) stay well below this.
    public static let defaultMaxLineBytes = 16_384

    public let maxLineBytes: Int
    private var pending: [UInt8] = []
    /// Non-nil while discarding the rest of an overlong line: bytes dropped so far.
    private var discarded: Int?

    public init(maxLineBytes: Int = defaultMaxLineBytes) {
        self.maxLineBytes = max(1, maxLineBytes)
    }

    /// Bytes buffered for the current, incomplete line.
    public var pendingByteCount: Int { pending.count }

    public mutating func append(_ bytes: some Sequence<UInt8>) -> [Item] {
        var items: [Item] = []
        for byte in bytes {
            if byte == UInt8(ascii: "\n") {
                if let dropped = discarded {
                    items.append(.overlong(byteCount: dropped))
                    discarded = nil
                } else {
                    if pending.last == UInt8(ascii: "\r") { pending.removeLast() }
                    if !pending.isEmpty { items.append(.line(pending)) }
                }
                pending.removeAll(keepingCapacity: true)
            } else if let dropped = discarded {
                discarded = dropped == Int.max ? dropped : dropped + 1
            } else if pending.count >= maxLineBytes {
                discarded = pending.count + 1
                pending.removeAll(keepingCapacity: false)
            } else {
                pending.append(byte)
            }
        }
        return items
    }

    /// End of stream: an unterminated last line is returned as a line (it may be cut short; the parser decides).
    public mutating func finish() -> [Item] {
        defer {
            pending = []
            discarded = nil
        }
        if let dropped = discarded { return [.overlong(byteCount: dropped)] }
        if pending.last == UInt8(ascii: "\r") { pending.removeLast() }
        return pending.isEmpty ? [] : [.line(pending)]
    }
}
