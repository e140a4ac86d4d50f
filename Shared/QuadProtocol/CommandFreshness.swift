/// When a link's last flight command arrived and whether it has gone stale: drone-link and mavlink-link both
/// substitute hover once the controller falls silent, until the next command.
public struct CommandFreshness: Sendable, Equatable {
    public private(set) var lastCommandUs: Int64?
    /// True from the timeout until the next command.
    public private(set) var isStale = false

    public init() {}

    public mutating func received(nowUs: Int64) {
        lastCommandUs = nowUs
        isStale = false
    }

    /// When the command in force goes stale; nil when there is none or it already has.
    public func deadlineUs(timeoutUs: Int64) -> Int64? {
        guard let lastCommandUs, !isStale else { return nil }
        return lastCommandUs &+ timeoutUs
    }

    /// Marks the command stale once it is older than `timeoutUs`; true when that just happened.
    public mutating func checkTimeout(nowUs: Int64, timeoutUs: Int64) -> Bool {
        guard let deadline = deadlineUs(timeoutUs: timeoutUs), nowUs >= deadline else { return false }
        isStale = true
        return true
    }

    /// Stale from now on until the next command (shutdown).
    public mutating func expire() { isStale = true }
}
