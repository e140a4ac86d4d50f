#if canImport(Glibc)
import Glibc
#endif

/// SIGINT and SIGTERM are blocked and polled from the run loop, so shutdown needs no handler or global flag.
struct StopSignals {
    private var set = sigset_t()

    init() {
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        sigaddset(&set, SIGTERM)
        sigprocmask(SIG_BLOCK, &set, nil)
    }

    var isPending: Bool {
        var pending = sigset_t()
        sigpending(&pending)
        return sigismember(&pending, SIGINT) == 1 || sigismember(&pending, SIGTERM) == 1
    }
}
