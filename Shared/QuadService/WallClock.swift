#if canImport(Glibc)
import Glibc
#endif

/// The one place services read the clock; pure code gets the time as a parameter.
public enum WallClock {
    /// Microseconds since the Unix epoch (wall time: goes into message timestamps).
    public static func nowUs() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Int64(ts.tv_sec) * 1_000_000 + Int64(ts.tv_nsec) / 1_000
    }

    /// Microseconds of a monotonic clock (for ages and timeouts; never jumps).
    public static func monotonicUs() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Int64(ts.tv_sec) * 1_000_000 + Int64(ts.tv_nsec) / 1_000
    }
}
