#if canImport(Glibc)
import Glibc
#endif
import Clocks

/// Sleeps until one of `descriptors` is readable or `timeout` passes. poll() counts milliseconds (ppoll is not in
/// Swift's Glibc module): rounded up, so a deadline is never early and at most 1 ms late; capped at a minute.
public enum PollWait {
    public static func untilReadable(_ descriptors: [Int32], timeout: Duration) {
        var fds = descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        _ = poll(&fds, nfds_t(fds.count), Int32(min((max(0, timeout.us) + 999) / 1000, 60_000)))
    }
}
