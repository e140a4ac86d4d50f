import Clocks

/// When a link's last flight command arrived and whether it has gone stale: drone-link and mavlink-link both
/// substitute hover once the controller falls silent, until the next command.
public struct CommandFreshness: Sendable, Equatable {
    public private(set) var lastCommand: MonotonicInstant?
    /// True from the timeout until the next command.
    public private(set) var isStale = false

    public init() {}

    public mutating func received(now: MonotonicInstant) {
        lastCommand = now
        isStale = false
    }

    /// When the command in force goes stale; nil when there is none or it already has.
    public func deadline(timeout: Duration) -> MonotonicInstant? {
        guard let lastCommand, !isStale else { return nil }
        return lastCommand.advanced(by: timeout)
    }

    /// Marks the command stale once it is older than `timeout`; true when that just happened.
    public mutating func checkTimeout(now: MonotonicInstant, timeout: Duration) -> Bool {
        guard let deadline = deadline(timeout: timeout), now >= deadline else { return false }
        isStale = true
        return true
    }

    /// Stale from now on until the next command (shutdown).
    public mutating func expire() { isStale = true }
}
