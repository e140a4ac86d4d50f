import Logging

/// Counts payloads a service refused and logs them without flooding: the 1st, 10th, 100th, … of each kind.
/// Nothing is refused silently, and a storm of bad input cannot drown the log.
public struct RejectionCounter: Sendable {
    public private(set) var counts: [String: Int] = [:]
    public var total: Int { counts.values.reduce(0, +) }

    public init() {}

    /// Every kind with its count, e.g. `drone-state 12, target 3` (sorted by kind); `none` when nothing was refused.
    public var summary: String {
        counts.isEmpty ? "none" : counts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
            .joined(separator: ", ")
    }

    public mutating func record(_ kind: String, reason: String, topic: String, logger: Logger) {
        let n = counts[kind, default: 0] + 1
        counts[kind] = n
        if n == 1 || n == 10 || n == 100 || n % 1000 == 0 {
            logger.warning("rejected \(kind) on \(topic): \(reason) (\(n) so far)")
        }
    }
}
