import Dispatch
import Logging
#if canImport(Glibc)
import Glibc
#endif

/// Last resort for "a stop always finishes": once shutdown has begun, a process still alive after `limitS`
/// (something blocked where we did not expect it) logs why it ends and exits 0, as a graceful stop would.
/// Every normal step is bounded below it (pilot release ≤ 0.4 s, goodbye ≤ 0.4 s, MQTT shutdown ≤ 0.5 s).
public enum ShutdownWatchdog {
    public static let limitS = 1.7

    public static func arm(logger: Logger) {
        DispatchQueue.global().asyncAfter(deadline: .now() + limitS) {
            logger.warning("shutdown watchdog: still not stopped \(limitS) s after shutdown began; exiting 0 now")
            exit(0)
        }
    }
}
