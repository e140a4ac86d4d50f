/// Polls `condition` every `poll` until it holds or `timeout` of the test's own running time has passed; returns
/// whether it held.
///
/// For unit tests of services over `InMemoryBroker`: the service under test shares the test process's small
/// cooperative pool with every other suite, and on a busy machine it can wait a long time for a thread (a CI run saw
/// a controller test's 500 × 20 ms loop end before the service had looked at its inbox; a run beside benchmarks and
/// builds had both pool threads held by synchronous property tests for 146 s, and every service test timed out
/// at once when they came back). So a poll that comes back late counts only `maxCountedPoll`: time in which
/// neither this test nor the service could run is the machine's, not a failure of the service. The bound stays a
/// hang guard: a condition that never holds fails after at least `timeout` of real time.
public func eventually(timeout: Duration = .seconds(120), poll: Duration = .milliseconds(5),
                       _ condition: () throws -> Bool) async rethrows -> Bool {
    let clock = ContinuousClock()
    let maxCountedPoll = max(poll * 20, .milliseconds(100))
    var waited = Duration.zero
    while waited < timeout {
        if try condition() { return true }
        let before = clock.now
        try? await Task.sleep(for: poll)
        waited += min(clock.now - before, maxCountedPoll)
    }
    return try condition()
}
