import Logging
import MAVLink
import QuadProtocol

/// COMMAND_LONGs to the autopilot, one in flight at a time (autopilots answer them in order), each resent with
/// `confirmation` + 1 until its COMMAND_ACK or until the attempts run out.
struct CommandSender: Sendable {
    struct Pending: Sendable, Equatable {
        var command: CommandLong
        var kind: LinkStatus.AutopilotCommand
        var label: String
        var attempts = 0
        var lastSentUs: Int64 = 0
    }

    /// The last final answer, for the status and tests.
    struct Outcome: Sendable, Equatable {
        var label: String
        var command: UInt16
        /// nil = no ACK after every attempt.
        var result: MAVResult?
    }

    /// The last answer of any kind (IN_PROGRESS too), for LinkStatus: what was asked, what came back, when.
    struct Answer: Sendable, Equatable {
        var kind: LinkStatus.AutopilotCommand
        var result: LinkStatus.CommandResult
        var atUs: Int64
    }

    private(set) var queue: [Pending] = []
    private(set) var lastOutcome: Outcome?
    private(set) var lastAnswer: Answer?
    /// +1 per answer (and per give-up), so two equal answers in a row are still two status updates.
    private(set) var answerCount = 0
    private(set) var failures = 0

    /// Appends, or with `urgent` puts it first (land, emergency); an unsent duplicate (same label) is replaced.
    mutating func enqueue(_ command: CommandLong, kind: LinkStatus.AutopilotCommand, label: String,
                          urgent: Bool = false) {
        queue.removeAll { $0.label == label && $0.attempts == 0 }
        let pending = Pending(command: command, kind: kind, label: label)
        if urgent {
            // The one in flight keeps its place only if it has been sent (its ACK is still expected).
            let insertAt = queue.first.map { $0.attempts > 0 ? 1 : 0 } ?? 0
            queue.insert(pending, at: insertAt)
        } else {
            queue.append(pending)
        }
    }

    /// Forget everything (the autopilot went away: its answers would be stale).
    mutating func clear() { queue.removeAll() }

    /// Drops the unsent commands of these kinds (one already sent keeps its place: its ACK is expected).
    mutating func remove(kinds: Set<LinkStatus.AutopilotCommand>) {
        queue.removeAll { kinds.contains($0.kind) && $0.attempts == 0 }
    }

    /// When the head of the queue must be (re)sent: at once when never sent.
    func dueUs(retryUs: Int64) -> Int64? {
        guard let head = queue.first else { return nil }
        return head.attempts == 0 ? .min : head.lastSentUs &+ retryUs
    }

    /// The head, to send now (first time or a retry), or a failure once the attempts are used up.
    mutating func poll(nowUs: Int64, retryUs: Int64, maxAttempts: Int) -> (send: CommandLong?,
        logs: [(Logger.Level, String)]) {
        guard var head = queue.first, let due = dueUs(retryUs: retryUs), nowUs >= due else { return (nil, []) }
        if head.attempts >= maxAttempts {
            queue.removeFirst()
            failures += 1
            lastOutcome = Outcome(label: head.label, command: head.command.command, result: nil)
            record(Answer(kind: head.kind, result: .noAnswer, atUs: nowUs))
            let text = "\(head.label) (MAV_CMD \(head.command.command)): no COMMAND_ACK after \(head.attempts) attempts"
            let next = poll(nowUs: nowUs, retryUs: retryUs, maxAttempts: maxAttempts)
            return (next.send, [(.error, text)] + next.logs)
        }
        head.command.confirmation = UInt8(clamping: head.attempts)
        head.attempts += 1
        head.lastSentUs = nowUs
        queue[0] = head
        return (head.command, [])
    }

    /// An ACK for the head: final results pop it; IN_PROGRESS only postpones the retry.
    mutating func acknowledge(_ ack: CommandAck, nowUs: Int64) -> [(Logger.Level, String)] {
        guard let head = queue.first, head.attempts > 0, head.command.command == ack.command else {
            return [(.debug, "COMMAND_ACK for MAV_CMD \(ack.command) (result \(ack.result)) matches nothing pending")]
        }
        let result = MAVResult(rawValue: ack.result)
        record(Answer(kind: head.kind, result: result.map(LinkStatus.CommandResult.init) ?? .failed, atUs: nowUs))
        if result == .inProgress {
            queue[0].lastSentUs = nowUs
            return [(.debug, "\(head.label): in progress (\(ack.progress) %)")]
        }
        queue.removeFirst()
        lastOutcome = Outcome(label: head.label, command: ack.command, result: result ?? .failed)
        let name = result.map(\.description) ?? "unknown result \(ack.result)"
        if result == .accepted { return [(.info, "\(head.label): accepted")] }
        failures += 1
        return [(.warning, "\(head.label) (MAV_CMD \(ack.command)): \(name)")]
    }

    private mutating func record(_ answer: Answer) {
        lastAnswer = answer
        answerCount &+= 1
    }
}

extension LinkStatus.CommandResult {
    /// The bus's name for an autopilot's MAV_RESULT.
    init(_ result: MAVResult) {
        switch result {
        case .accepted: self = .accepted
        case .temporarilyRejected: self = .temporarilyRejected
        case .denied: self = .denied
        case .unsupported: self = .unsupported
        case .failed: self = .failed
        case .inProgress: self = .inProgress
        case .cancelled: self = .cancelled
        }
    }
}
