#if canImport(Glibc)
import Glibc
#endif

/// Microseconds from CLOCK_MONOTONIC; the only clock the simulator reads.
enum MonotonicClock {
    static func nowUs() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Int64(spec.tv_sec) * 1_000_000 + Int64(spec.tv_nsec) / 1000
    }
}
