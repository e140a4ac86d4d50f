/// How an incoming sequence number relates to the previous one from the same sender.
public enum SequenceClass: Equatable, Sendable {
    /// The next number (or the first message seen from this sender).
    case inOrder
    /// Numbers were skipped: `missing` messages were lost (or are still on their way).
    case gap(missing: UInt32)
    /// Seen before or older than the last one: drop it.
    case duplicateOrOld
    /// The sender started counting again from the beginning (it restarted).
    case restart
    /// Sequence 0: the message came from a text form and carries no sequence.
    case unsequenced
}

/// Per-sender sequence bookkeeping, so services can count gaps and duplicates and drop stale messages.
/// Memory is bounded: past `maxSenders` the sender seen least recently is forgotten.
public struct SequenceTracker: Sendable {
    /// A number behind the last one is a restart (not a stale message) when it is 1 (a fresh counter), or at
    /// most this and more than this behind the last one (the restarted sender's first messages were lost).
    public static let restartWindow: UInt32 = 16

    private var lastBySender: [String: (sequence: UInt32, seenTick: UInt64)] = [:]
    private var tick: UInt64 = 0
    public let maxSenders: Int
    public private(set) var missingTotal: UInt64 = 0
    public private(set) var duplicateTotal: UInt64 = 0
    public private(set) var restartTotal: UInt64 = 0

    public init(maxSenders: Int = 256) { self.maxSenders = max(1, maxSenders) }

    /// Classifies `sequence` from `sender` and remembers it unless it is a duplicate or old.
    public mutating func observe(sender: String, sequence: UInt32) -> SequenceClass {
        guard sequence != 0 else { return .unsequenced }
        tick &+= 1
        guard let last = lastBySender[sender]?.sequence else {
            remember(sender, sequence)
            return .inOrder
        }
        let result = Self.classify(last: last, incoming: sequence)
        switch result {
        case .duplicateOrOld: duplicateTotal &+= 1
        case let .gap(missing): missingTotal &+= UInt64(missing); remember(sender, sequence)
        case .restart: restartTotal &+= 1; remember(sender, sequence)
        case .inOrder, .unsequenced: remember(sender, sequence)
        }
        return result
    }

    /// Pure classification of `incoming` after `last` (both non-zero; the counter skips 0 when it wraps).
    public static func classify(last: UInt32, incoming: UInt32) -> SequenceClass {
        // Forward distance on the 1…UInt32.max circle.
        let forward = incoming > last ? incoming - last : (incoming == last ? 0 : incoming &- last &- 1)
        if forward == 0 { return .duplicateOrOld }
        if forward == 1 { return .inOrder }
        if forward < 1 << 31 { return .gap(missing: forward - 1) }
        // Behind: incoming < last here whenever incoming <= restartWindow, so the subtraction cannot wrap.
        let restarted = incoming == 1 || (incoming <= restartWindow && last - incoming > restartWindow)
        return restarted ? .restart : .duplicateOrOld
    }

    private mutating func remember(_ sender: String, _ sequence: UInt32) {
        if lastBySender[sender] == nil, lastBySender.count >= maxSenders,
           let oldest = lastBySender.min(by: { $0.value.seenTick < $1.value.seenTick })?.key {
            lastBySender[oldest] = nil
        }
        lastBySender[sender] = (sequence, tick)
    }
}
