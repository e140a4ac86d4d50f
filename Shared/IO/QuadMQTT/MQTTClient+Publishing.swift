import Clocks
import Synchronization

// Publishing: QoS 0 only while connected; QoS 1 kept by libmosquitto across reconnects, bounded, each PUBACK matched
// to its waiter.
extension MQTTClient {
    /// Hands a message to the library. QoS 0: sent if connected, otherwise `.notConnected`. QoS 1: queued and
    /// resent after a reconnect until acknowledged; refused with `.offlineQueueFull` past the bound, and with
    /// `.notConnected` while the network loop is being (re)started.
    /// `expiryS`: MQTT 5 Message Expiry Interval — a broker (and a bridge queue on it) drops the message once it
    /// has waited that long. Ignored on a 3.1.1 connection (see `speaksMQTT5`).
    @discardableResult
    public func publish(topic: String, payload: [UInt8], qos: Int32, retain: Bool,
                        expiryS: UInt32? = nil) throws(MQTTError) -> Int32 {
        try publish(topic: topic, payload: payload, qos: qos, retain: retain, expiryS: expiryS, waiter: nil)
    }

    /// Publishes and waits for the broker's acknowledgement (PUBACK for QoS 1; for QoS 0, the hand-over to the
    /// socket).
    public func publishAndWait(topic: String, payload: [UInt8], qos: Int32 = 1, retain: Bool,
                               expiryS: UInt32? = nil, timeout: Duration = .seconds(5)) async throws {
        guard qos > 0 else {
            try publish(topic: topic, payload: payload, qos: qos, retain: retain, expiryS: expiryS)
            return
        }
        let publishedMid = MidBox()
        let timer = Task { [weak self] in
            try await Task.sleep(for: timeout)
            if let mid = publishedMid.value.withLock({ $0 }) {
                self?.failWaiter(mid: mid, with: .acknowledgementTimeout(after: timeout))
            }
        }
        defer { timer.cancel() }
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            do {
                let mid = try publish(topic: topic, payload: payload, qos: qos, retain: retain, expiryS: expiryS,
                                      waiter: continuation)
                publishedMid.value.withLock { $0 = mid }
            } catch {
                continuation.resume(throwing: error)
            }
        }
    }

    /// Publishes `configuration.announcement` (on the network thread after a CONNACK, or on the supervisor's) and
    /// schedules the next one. A refused publish is tried again at the next interval or connect.
    func announce(now: MonotonicInstant) {
        guard let announcement = configuration.announcement else { return }
        announcing.withLock { on in
            guard on else { return }
            state.withLock { $0.nextAnnouncement = now.advanced(by: announcement.interval) }
            _ = try? publish(topic: announcement.topic, payload: announcement.payload, qos: announcement.qos,
                             retain: announcement.retain)
        }
    }

    /// No announcement from now on, and none in flight when this returns: before a goodbye's own status.
    public func endAnnouncement() {
        announcing.withLock { $0 = false }
    }

    /// On the supervisor's thread, every check: the announcement again once its interval is over, if connected.
    /// Not a task sleeping on the Swift pool: in steady flight nothing else wakes a board service's pool, and
    /// libdispatch retires an idle pool thread after 5 s, so each wake-up every 5 s started a new thread.
    func announceIfDue() {
        guard configuration.announcement != nil else { return }
        let now = MonotonicClock.now()
        let due = state.withLock { s in s.connected && s.nextAnnouncement.map { now >= $0 } == true }
        if due { announce(now: now) }
    }

    /// QoS 1 messages still waiting for the broker's acknowledgement.
    public var pendingAcknowledgements: Int { state.withLock { $0.pendingQoS1.count } }

    private func publish(topic: String, payload: [UInt8], qos: Int32, retain: Bool, expiryS: UInt32?,
                         waiter: CheckedContinuation<Void, any Error>?) throws(MQTTError) -> Int32 {
        // The lock spans the library call so the PUBACK callback cannot see the mid before it is recorded.
        let result: Result<Int32, MQTTError> = state.withLock { s in
            if s.phase == .stopping { return .failure(.shutDown) }
            // libmosquitto queues a PUBLISH made after its socket exists but before CONNECT is queued ahead of
            // CONNECT (the broker then drops the connection for a protocol error), and while connect_async runs
            // unthreaded it even writes from this thread. So: nothing during a (re)start, QoS 0 only after CONNACK.
            // (A CONNACK can beat the end of `startLoop` on a loaded machine: `onConnect` must still publish.)
            if (s.startingLoop || qos == 0) && !s.connected { return .failure(.notConnected) }
            if qos > 0, s.pendingQoS1.count >= configuration.maxPendingQoS1 {
                return .failure(.offlineQueueFull(pending: s.pendingQoS1.count))
            }
            // Counted before the library call, so its PUBACK callback takes the lock and waits for the mid below.
            if qos > 0 { qos1InFlight.add(1, ordering: .sequentiallyConsistent) }
            let mid: Int32
            switch libraryPublish(topic: topic, payload: payload, qos: qos, retain: retain,
                                  expiryS: s.speaksV5 ? expiryS : nil) {
            case .sent(let sent):
                mid = sent
            case .notConnected(let queued):
                if qos == 0 { return .failure(.notConnected) }
                // QoS 1 while offline: the library keeps it and resends after the reconnect.
                mid = queued
            case .failed(let code, let description):
                if qos > 0 { qos1InFlight.subtract(1, ordering: .sequentiallyConsistent) }
                return .failure(.library(operation: "publish to \(topic)", code: code, description: description))
            }
            if qos > 0 { s.pendingQoS1[mid] = .some(waiter) }
            return .success(mid)
        }
        return try result.get()
    }

    /// Stops waiting for one acknowledgement; the message itself stays queued in the library.
    private func failWaiter(mid: Int32, with error: MQTTError) {
        let waiter = state.withLock { s -> CheckedContinuation<Void, any Error>? in
            guard let entry = s.pendingQoS1[mid], let waiter = entry else { return nil }
            s.pendingQoS1[mid] = .some(nil)
            return waiter
        }
        waiter?.resume(throwing: error)
    }

    /// On the network thread: a PUBACK (QoS 1) or a QoS 0 message handed to the socket.
    func handlePublished(mid: Int32) {
        guard qos1InFlight.load(ordering: .sequentiallyConsistent) > 0 else { return }
        let waiter = state.withLock { s -> CheckedContinuation<Void, any Error>? in
            guard let entry = s.pendingQoS1.removeValue(forKey: mid) else { return nil }
            qos1InFlight.subtract(1, ordering: .sequentiallyConsistent)
            return entry
        }
        waiter?.resume()
    }
}

private final class MidBox: Sendable {
    let value = Mutex<Int32?>(nil)
}
