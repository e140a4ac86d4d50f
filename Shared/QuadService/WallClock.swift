#if canImport(Glibc)
import Glibc
#endif

/// The one place services read the clock; pure code gets the time as a parameter.
public enum WallClock {
    /// Microseconds since the Unix epoch (wall time: goes into message timestamps), plus `QUAD_CLOCK_SKEW_S`.
    public static func nowUs() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Int64(ts.tv_sec) * 1_000_000 + Int64(ts.tv_nsec) / 1_000 + skewUs
    }

    /// `QUAD_CLOCK_SKEW_S` (seconds, may be negative): stamps as a host whose clock is that far off would write
    /// them — to rehearse a laptop and a board with different clocks on one machine (libfaketime cannot be used:
    /// Dispatch timers hang under it). Only stamps change; no decision reads the wall clock.
    static let skewUs: Int64 = {
        guard let text = getenv("QUAD_CLOCK_SKEW_S").map({ String(cString: $0) }), let skewS = Double(text),
              skewS.isFinite, abs(skewS) < 1e9 else { return 0 }
        return Int64(skewS * 1_000_000)
    }()

    /// Microseconds of a monotonic clock (for ages and timeouts; never jumps).
    public static func monotonicUs() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Int64(ts.tv_sec) * 1_000_000 + Int64(ts.tv_nsec) / 1_000
    }
}
