import Dispatch
import Clocks
import ServiceThreads
import Synchronization

// The connection's lifecycle: `start` and `shutdown`, and the supervisor's one thread, which makes every
// loop_start / loop_stop / connect_async (libmosquitto must never see two threads in loop_stop, nor a restart
// racing a shutdown) and checks the connection every 250 ms (libmosquitto stops retrying after some errors without
// telling anyone, and its reconnects fail silently).
extension MQTTClient {
    /// Starts the network thread and connects in the background; reconnects by itself from then on.
    /// Returns at once: a broker that is not up yet is not an error (it is logged within about a second).
    public func start() throws(MQTTError) {
        let first = state.withLock { s -> Bool in
            guard s.phase == .idle else { return false }
            s.phase = .running
            s.supervising = true
            s.lastProgressS = MonotonicClock.now().seconds
            return true
        }
        guard first else { return }
        let started = StartResult()
        do {
            // The thread holds the client only while it works on it: a client dropped without `shutdown` ends.
            try ServiceThread.detach { [weak self, wake = supervisorWake, ended = supervisorEnded] in
                defer { ended.signal() }
                guard let began = self?.startLoopFirst(reportingTo: started) else { return started.set(.success(())) }
                guard began else { return }
                MQTTClient.supervise(wake: wake) { self }
            }
        } catch {
            state.withLock { $0.supervising = false }
            throw .library(operation: "the supervisor's thread", code: error.errorNumber, description: "\(error)")
        }
        try started.wait().get()
    }

    /// The supervisor's first step, for `start` to return: whether the loop started.
    private func startLoopFirst(reportingTo started: StartResult) -> Bool {
        do throws(MQTTError) {
            try startLoop()
            started.set(.success(()))
            return true
        } catch {
            state.withLock { $0.supervising = false }
            started.set(.failure(error))
            return false
        }
    }

    /// Every 250 ms, or when woken, until the client stops (then it stops the loop) or is released.
    private static func supervise(wake: DispatchSemaphore, client: () -> MQTTClient?) {
        while true {
            _ = wake.wait(timeout: .now() + .milliseconds(250))
            guard let client = client() else { return }
            if client.state.withLock({ $0.phase == .stopping }) {
                client.stopLoop()
                client.state.withLock { $0.supervising = false }
                return
            }
            client.superviseOnce()
            client.resubscribeDue()
            client.announceIfDue()
        }
    }

    /// Disconnects cleanly (the broker does not publish the will), stops the network thread and finishes every
    /// subscription. Waits at most `timeout` for libmosquitto: its thread can sit in a blocking connect()
    /// (a reconnect to a silent host) for minutes, and loop_stop would wait for it; then the thread is left to
    /// end with the process and `false` is returned. Safe to call twice, from any thread.
    @discardableResult
    public func shutdown(timeout: Duration = .milliseconds(500)) -> Bool {
        let (first, supervising) = state.withLock { s -> (Bool, Bool) in
            defer { s.phase = .stopping }
            return (s.phase != .stopping, s.supervising)
        }
        var stopped = true
        if first && supervising {
            supervisorWake.signal()
            let deadline = MonotonicClock.now().advanced(by: timeout)
            while supervisorEnded.wait(timeout: .now() + .milliseconds(50)) == .timedOut {
                if MonotonicClock.now() >= deadline {
                    stopped = false
                    break
                }
                // A reconnect in progress resets libmosquitto's state to "new", forgetting an earlier
                // disconnect: repeat it until the thread notices.
                libraryDisconnect()
            }
            if !stopped {
                state.withLock { $0.abandoned = true }
                logger.warning("""
                    libmosquitto's network thread did not stop within \(timeout) (blocked in a reconnect?); \
                    leaving it to end with the process
                    """)
            }
        }
        dispatcher.finish()
        let (streams, waiters, events) = state.withLock { s in
            defer {
                qos1InFlight.subtract(s.pendingQoS1.count, ordering: .sequentiallyConsistent)
                s.streams = []; s.pendingQoS1 = [:]; s.eventContinuations = []
            }
            return (s.streams, s.pendingQoS1.values.compactMap { $0 }, s.eventContinuations)
        }
        streams.forEach { $0.finish() }
        waiters.forEach { $0.resume(throwing: MQTTError.shutDown) }
        events.forEach { $0.finish() }
        return stopped
    }

    /// On the supervisor's thread only.
    private func startLoop() throws(MQTTError) {
        let endpoint = currentEndpoint
        state.withLock { s in
            s.attemptFailed = false
            s.connectNotIssued = false
        }
        // Publishes are refused meanwhile (see `publish`); the flag is not held as a lock, so a publisher on a
        // real-time thread never waits for connect_async (DNS may take seconds).
        state.withLock { $0.startingLoop = true }
        defer { state.withLock { $0.startingLoop = false } }
        // A refused or unreachable broker is not fatal here: the loop keeps trying. Say why at once.
        if let reason = libraryConnect(endpoint) {
            state.withLock { s in
                s.attemptFailed = true
                s.connectNotIssued = true
            }
            reportTrouble("cannot reach broker \(endpoint): \(reason)")
        }
        try libraryLoopStart()
        state.withLock { $0.loopRunning = true }
    }

    /// On the supervisor's thread only: disconnect first, so the thread leaves its loop, then join it.
    private func stopLoop() {
        guard state.withLock({ $0.loopRunning }) else { return }
        libraryLoopStop()
        state.withLock { $0.loopRunning = false }
    }

    private func superviseOnce() {
        // Connected (the usual case): nothing to do, and nothing allocated on this thread every 250 ms.
        guard state.withLock({ $0.phase == .running && !$0.connected }) else { return }
        let nowS = MonotonicClock.now().seconds
        let brokers = configuration.brokers
        let delayS = Double(configuration.reconnectDelayS)
        // `routine`: a restart that is the retry itself (logged at debug; the trouble line already said why).
        var routine = false
        let (restartReason, probe): (String?, Bool) = state.withLock { s in
            guard s.phase == .running, !s.connected else { return (nil, false) }
            let probe = nowS - s.lastProgressS >= 0.5 && s.trouble.probeDue(nowS: nowS)
            if probe { s.trouble.probing = true }
            // Several brokers: after a failure (or a silent attempt) move on to the next, at the reconnect pace.
            let quietS = nowS - s.lastProgressS
            if brokers.count > 1, quietS >= delayS, s.attemptFailed || s.fatalDisconnect || quietS >= delayS + 2 {
                let from = brokers[s.brokerIndex % brokers.count]
                if s.retrySameBroker {
                    s.retrySameBroker = false
                    return ("asking \(from) again in MQTT 3.1.1", probe)
                }
                s.brokerIndex = (s.brokerIndex + 1) % brokers.count
                let to = brokers[s.brokerIndex]
                return ("no connection to \(from): trying \(to) (\(s.brokerIndex + 1) of \(brokers.count))", probe)
            }
            // Our connect failed (a broker not up yet): libmosquitto never retries that one, and the 15 s restart
            // below came too late (issue 24: services booted before mosquitto). A try costs one connect().
            if brokers.count == 1, s.connectNotIssued, quietS >= configuration.connectRetryS {
                routine = true
                return ("connecting again", probe)
            }
            // After a fatal error, restart at libmosquitto's own reconnect pace (not at every check).
            if s.fatalDisconnect, nowS - s.lastProgressS >= Double(configuration.reconnectDelayS) {
                return ("libmosquitto stopped after a fatal error", probe)
            }
            if nowS - s.lastProgressS > configuration.supervisorRestartAfterS {
                return ("no connection for \(Int(configuration.supervisorRestartAfterS)) s", probe)
            }
            return (nil, probe)
        }
        if probe { probeBroker() }
        guard let restartReason else { return }
        let loud = !routine && state.withLock { s in
            defer { if nowS - s.lastRestartLogS >= ConnectionTrouble.repeatAfterS { s.lastRestartLogS = nowS } }
            return nowS - s.lastRestartLogS >= ConnectionTrouble.repeatAfterS
        }
        if loud { logger.notice("restarting the MQTT network loop: \(restartReason)") } else {
            logger.debug("restarting the MQTT network loop: \(restartReason)")
        }
        stopLoop()
        let stillWanted = state.withLock { s -> Bool in
            s.fatalDisconnect = false
            s.lastProgressS = MonotonicClock.now().seconds
            return s.phase == .running
        }
        // A shutdown that came meanwhile is seen at the next turn of the supervisor, which stops what we start.
        guard stillWanted else { return }
        do {
            try startLoop()
            emit(.loopRestarted(reason: restartReason))
        } catch {
            logger.error("could not restart the MQTT loop: \(error)")
        }
    }

    /// libmosquitto's own reconnects do not say why they fail: try a TCP connect ourselves (DNS and the connect may
    /// block: on a thread of its own, never the supervisor's) and log the reason.
    private func probeBroker() {
        let endpoint = currentEndpoint
        let (host, port) = (endpoint.host, endpoint.port)
        let index = state.withLock { $0.brokerIndex } % configuration.brokers.count
        do {
            try ServiceThread.detach { [weak self] in
                let failure = BrokerProbe.failure(host: host, port: port, timeoutMs: 500)
                self?.probed(host: host, port: port, brokerIndex: index, failure: failure)
            }
        } catch {
            state.withLock { $0.trouble.probing = false }
        }
    }

    private func probed(host: String, port: Int32, brokerIndex index: Int, failure: String?) {
        let refused = state.withLock { s -> Bool in
            s.trouble.probing = false
            // libmosquitto reports no failed background connect: the probe's finding moves a cluster on.
            if failure != nil, s.brokerIndex % configuration.brokers.count == index { s.attemptFailed = true }
            return s.trouble.refusedByBroker
        }
        if let failure {
            reportTrouble("cannot reach broker \(host):\(port): \(failure)")
        } else if !refused, MonotonicClock.now().seconds - state.withLock({ $0.lastProgressS }) >= 5 {
            reportTrouble("broker \(host):\(port) accepts TCP connections but no MQTT session came up")
        }
    }
}

/// `start`'s wait for the supervisor's first step (the first loop start).
private final class StartResult: Sendable {
    private let result = Mutex<Result<Void, MQTTError>?>(nil)
    private let done = DispatchSemaphore(value: 0)

    func set(_ value: Result<Void, MQTTError>) {
        result.withLock { $0 = value }
        done.signal()
    }

    func wait() -> Result<Void, MQTTError> {
        done.wait()
        return result.withLock { $0 } ?? .success(())
    }
}
