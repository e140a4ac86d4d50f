#if canImport(Glibc)
import Glibc
#endif

/// The one place the code reads a clock; pure code gets the time as a parameter.
///
/// Two clocks, two types: a `MonotonicInstant` (CLOCK_MONOTONIC: ages, timeouts, deadlines; never jumps, means
/// nothing on another host) and a `WallInstant` (CLOCK_REALTIME: stamps in messages and logs; may step, and the
/// other host's differs). `Instant` is generic over its clock, so subtracting a wall stamp from a monotonic
/// reading, or passing one where the other is meant, does not compile (a runtime test cannot show that; the
/// APIs' parameter types are the guarantee).
///
/// The convention: pure APIs take `now: MonotonicInstant` for ages, timeouts and deadlines (receipts come typed
/// from `Inbox.feed`) and a `WallInstant` wherever they write a stamp into a message; a span of time that crosses a
/// module boundary (an interval, a timeout, an age, an offset between two clocks) is a `Duration` (settings kept as
/// plain numbers say their unit in their name: `maxFixAgeS`). Bare microseconds stay in the wire and log-file
/// codecs (a message's `timestampUs`, a log record's `receiveTimeUs`); `Instant(us:)`, `Instant.us` and
/// `Duration.us` are where they meet. `nowUs()` remains for code that writes a
/// wire field directly.
public struct Instant<Source: ClockSource>: Comparable, Hashable, Sendable, CustomStringConvertible {
    /// Microseconds on `Source`'s scale.
    public var us: Int64

    public init(us: Int64) { self.us = us }

    public var seconds: Double { Double(us) / 1_000_000 }

    /// This instant moved by `duration` (whole microseconds of it: `Duration.us`).
    public func advanced(by duration: Duration) -> Instant { Instant(us: us + duration.us) }

    /// The time from `rhs` to `lhs` (negative when `rhs` is later).
    public static func - (lhs: Instant, rhs: Instant) -> Duration { .microseconds(lhs.us - rhs.us) }

    public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.us < rhs.us }

    public var description: String { "\(Source.name) \(us) µs" }
}

extension Duration {
    /// Whole microseconds, truncated toward zero (1.9 µs is 1, −1.9 µs is −1) and clamped to `Int64`'s range:
    /// where a module's own `Int64` timers, or a wire field, take a `Duration`.
    /// From `components`, not the Int128 `attoseconds` (Swift 6.2): the board's build is Swift 6.0. Both components
    /// carry the duration's sign, so an overflow clamps toward it.
    public var us: Int64 {
        let (seconds, attoseconds) = components
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000)
        let (sum, overflowSum) = scaled.addingReportingOverflow(attoseconds / 1_000_000_000_000)
        if overflow || overflowSum { return seconds < 0 ? .min : .max }
        return sum
    }
}

extension Duration {
    /// The span in seconds, for arithmetic with rates (a filter's time constant, metres per second).
    public var inSeconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    /// `seconds` as a Duration, clamped to ±100 years and 0 for NaN: a setting typed by a user (`--lost-pilot-land-
    /// after 1e300`) never traps; the CLI checks the sensible range.
    public static func seconds(clamping seconds: Double) -> Duration {
        guard !seconds.isNaN else { return .zero }
        let limitS = 100 * 365.25 * 86_400
        return .seconds(min(max(seconds, -limitS), limitS))
    }
}

/// What an `Instant` was read from; only the two clocks below conform.
public protocol ClockSource: Sendable {
    static var name: String { get }
}

public typealias MonotonicInstant = Instant<MonotonicClock>
public typealias WallInstant = Instant<WallClock>

/// CLOCK_MONOTONIC: for ages and timeouts (safety decisions use the receiver's monotonic clock).
public enum MonotonicClock: ClockSource {
    public static let name = "monotonic"

    public static func now() -> MonotonicInstant { MonotonicInstant(us: read(CLOCK_MONOTONIC)) }

    public static func nowUs() -> Int64 { now().us }
}

/// CLOCK_REALTIME: microseconds since the Unix epoch, plus `QUAD_CLOCK_SKEW_S`; for stamps and logs only.
public enum WallClock: ClockSource {
    public static let name = "wall"

    public static func now() -> WallInstant { WallInstant(us: read(CLOCK_REALTIME) + skewUs) }

    public static func nowUs() -> Int64 { now().us }

    /// `QUAD_CLOCK_SKEW_S` (seconds, may be negative): stamps as a host whose clock is that far off would write
    /// them — to rehearse a laptop and a board with different clocks on one machine (libfaketime cannot be used:
    /// Dispatch timers hang under it). Only stamps change; no decision reads the wall clock.
    static let skewUs: Int64 = {
        guard let text = getenv("QUAD_CLOCK_SKEW_S").map({ String(cString: $0) }), let skewS = Double(text),
              skewS.isFinite, abs(skewS) < 1e9 else { return 0 }
        return Int64(skewS * 1_000_000)
    }()
}

private func read(_ clock: clockid_t) -> Int64 {
    var ts = timespec()
    clock_gettime(clock, &ts)
    return Int64(ts.tv_sec) * 1_000_000 + Int64(ts.tv_nsec) / 1_000
}
