/// Polls `condition` until it holds or `timeoutS` of monotonic time has passed; returns whether it held.
///
/// For unit tests of services over `InMemoryBroker`: the service under test shares the test process's small
/// cooperative pool with every other suite, and on a busy machine it can wait seconds for a thread (a CI run saw a
/// controller test's 500 × 20 ms loop end before the service had looked at its inbox). So the bound is time, and
/// generous (a busy run starved the whole test process for
/// 40 s at its start: trivial pure tests reported 42 s); the wait is short whenever the service gets to run.
/// Count-bounded loops are not used for this.
public func eventually(timeoutS: Double = 120, pollMs: Int = 5,
                       _ condition: () throws -> Bool) async rethrows -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: .milliseconds(Int(timeoutS * 1000)))
    while clock.now < deadline {
        if try condition() { return true }
        try? await Task.sleep(for: .milliseconds(pollMs))
    }
    return try condition()
}
