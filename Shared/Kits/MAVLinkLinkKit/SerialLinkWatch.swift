import Clocks
import DatagramIO
import MAVLinkCompanion

/// The serial device's story, pure (time comes in): whether MAVLink came within `firstFrameWithin` of opening
/// (else one warning naming device and baud with the usual rates), when to try opening a vanished device again
/// (every `reopenInterval`), and one log line when it goes and one when it comes back.
struct SerialLinkWatch {
    static let firstFrameWithin = Duration.seconds(5)
    static let reopenInterval = Duration.seconds(1)

    let device: String
    let baud: Int

    enum State: Equatable {
        /// Open since `since`; `frames` valid frames and `bytes` bytes since then; `warned`: the no-MAVLink warning
        /// was logged.
        case open(since: MonotonicInstant, bytes: Int, frames: Int, warned: Bool)
        /// Gone; the next attempt to open it at `retryAt`.
        case closed(retryAt: MonotonicInstant, attempts: Int)
    }

    private(set) var state: State

    /// The device was opened at `now` (the start).
    init(device: String, baud: Int, openedAt now: MonotonicInstant) {
        self.device = device
        self.baud = baud
        state = .open(since: now, bytes: 0, frames: 0, warned: false)
    }

    var isOpen: Bool { if case .open = state { true } else { false } }

    /// `bytes` read, of which the parser made `frames` valid frames.
    mutating func received(bytes: Int, frames: Int, now: MonotonicInstant) -> [CompanionAction] {
        guard case .open(let since, let seenBytes, let seenFrames, let warned) = state else { return [] }
        state = .open(since: since, bytes: seenBytes + bytes, frames: seenFrames + frames, warned: warned)
        guard warned, seenFrames == 0, frames > 0 else { return [] }
        return [.log(.notice, "MAVLink on \(device) at \(baud) baud after all")]
    }

    /// The no-MAVLink rule, at any wake-up: one warning once `firstFrameWithin` passed without a valid frame.
    mutating func check(now: MonotonicInstant) -> [CompanionAction] {
        guard case .open(let since, let bytes, 0, false) = state, now - since >= Self.firstFrameWithin else {
            return []
        }
        state = .open(since: since, bytes: bytes, frames: 0, warned: true)
        let seconds = Self.firstFrameWithin.components.seconds
        let heard = bytes == 0
            ? "nothing received — check the wiring (TX→RX, RX→TX, GND) and that the autopilot sends MAVLink on " +
              "that port; else"
            : "\(bytes) bytes, none a valid frame (a wrong baud rate?) —"
        return [.log(.warning, "no MAVLink at \(baud) baud on \(device) within \(seconds) s: \(heard) try "
                     + "\(SerialBaud.suggestion(excluding: baud)) (--baud); still listening")]
    }

    /// The device went away (unplugged, hang-up): logged once; opening is tried again from `reopenInterval` on.
    mutating func lost(_ reason: String, now: MonotonicInstant) -> [CompanionAction] {
        guard isOpen else { return [] }
        state = .closed(retryAt: now.advanced(by: Self.reopenInterval), attempts: 0)
        return [.log(.warning, "serial device \(device) gone (\(reason)): the autopilot is not connected; "
                     + "trying to open it again every \(Self.reopenInterval.components.seconds) s")]
    }

    func reopenDue(now: MonotonicInstant) -> Bool {
        if case .closed(let retryAt, _) = state { now >= retryAt } else { false }
    }

    /// An attempt to open it again failed: silent (the loss was logged), the next one `reopenInterval` later.
    mutating func reopenFailed(now: MonotonicInstant) {
        guard case .closed(_, let attempts) = state else { return }
        state = .closed(retryAt: now.advanced(by: Self.reopenInterval), attempts: attempts + 1)
    }

    /// It is open again: logged once; the no-MAVLink rule starts over.
    mutating func reopened(now: MonotonicInstant) -> [CompanionAction] {
        guard case .closed(_, let attempts) = state else { return [] }
        state = .open(since: now, bytes: 0, frames: 0, warned: false)
        return [.log(.notice, "serial device \(device) is back (opened again after \(attempts + 1) attempts)")]
    }
}
