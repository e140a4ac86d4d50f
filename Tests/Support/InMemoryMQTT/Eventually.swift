/// Polls `condition` every `poll` until it holds or `timeout` of monotonic time has passed; returns whether it held.
///
/// For unit tests of services over `InMemoryBroker`: the service under test shares the test process's small
/// cooperative pool with every other suite, and on a busy machine it can wait seconds for a thread (a CI run saw a
/// controller test's 500 × 20 ms loop end before the service had looked at its inbox). So the bound is time, and
/// generous (a busy run starved the whole test process for
/// 40 s at its start: trivial pure tests reported 42 s); the wait is short whenever the service gets to run.
/// Count-bounded loops are not used for this.
public func eventually(timeout: Duration = .seconds(120), poll: Duration = .milliseconds(5),
                       _ condition: () throws -> Bool) async rethrows -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: timeout)
    while clock.now < deadline {
        if try condition() { return true }
        try? await Task.sleep(for: poll)
    }
    return try condition()
}
