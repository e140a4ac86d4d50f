#if canImport(Glibc)
import Glibc
#endif

/// CLOCK_MONOTONIC for every interval (one clock in one process for both ends of a measurement), CLOCK_REALTIME
/// only for message timestamps the services compare with their own wall clock.
enum BenchClock {
    static func monotonicNs() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec)
    }

    static func wallClockUs() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Int64(spec.tv_sec) * 1_000_000 + Int64(spec.tv_nsec) / 1000
    }

    /// Sleeps until an absolute monotonic time (no drift when pacing a publisher).
    static func sleep(untilNs deadlineNs: Int64) {
        var spec = timespec(tv_sec: Int(deadlineNs / 1_000_000_000), tv_nsec: Int(deadlineNs % 1_000_000_000))
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &spec, nil) == EINTR {}
    }
}
