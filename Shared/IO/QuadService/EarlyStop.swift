#if canImport(Glibc)
import Glibc
#endif

/// SIGTERM/SIGINT before a service's group handles them itself: end at once with exit 0. Nothing was announced
/// yet (the broker connection starts inside the group), and the default action (exit 143) is what a loaded
/// machine showed when a stop came during startup. Armed while the process starts and parses its command line,
/// and again from `ServiceRuntime.init` until the group runs; a tool's own work (export, tail…) is not covered.
public enum EarlyStop {
    static let signals = [SIGTERM, SIGINT]

    /// At process start (`launch()`) and in `ServiceRuntime.init`.
    public static func install() {
        for signalNumber in signals { signal(signalNumber) { _ in _exit(0) } }
    }

    /// Once the command line is parsed (a tool's own work keeps the usual signal behaviour). A service does not hand
    /// over: its group's signal source replaces the handler.
    static func handOver() {
        for signalNumber in signals { signal(signalNumber, SIG_DFL) }
    }
}
