import Clocks

/// What an `MQTTClient` knows about its connection, under its one lock (`MQTTClient.state`).
struct MQTTClientState {
    enum Phase { case idle, running, stopping }

    /// Each distinct filter once, re-made on every CONNACK.
    var filters: [(filter: String, qos: Int32)] = []
    var streams: [MQTTSubscription] = []
    var connected = false
    var phase = Phase.idle
    /// The supervisor's thread runs (from `start` until it stopped the loop, or its start failed).
    var supervising = false
    /// libmosquitto's network thread is started (only the supervisor's thread changes it).
    var loopRunning = false
    /// `shutdown` stopped waiting for the network thread: the handle must never be destroyed.
    var abandoned = false
    var trouble = ConnectionTrouble()
    var lastRestartLogS = -Double.infinity
    /// While `startLoop` runs (connect_async before loop_start, so the library is not yet threaded).
    var startingLoop = false
    /// QoS 1 mids awaiting PUBACK, with the waiter if someone awaits it.
    var pendingQoS1: [Int32: CheckedContinuation<Void, any Error>?] = [:]
    /// Monotonic seconds of the last CONNACK or of the last (re)start of the loop.
    var lastProgressS: Double = 0
    /// When `configuration.announcement` is due again (nil: not connected yet).
    var nextAnnouncement: MonotonicInstant?
    var fatalDisconnect = false
    /// The version of the current (or next) CONNECT: `.auto` starts at 5 and may fall back to 3.1.1.
    var speaksV5 = false
    var eventContinuations: [AsyncStream<MQTTConnectionEvent>.Continuation] = []
    /// SUBSCRIBE mids awaiting their SUBACK, with the filter asked for (one filter per SUBSCRIBE).
    var pendingSubscribes: [Int32: String] = [:]
    var refusedSubscriptions = 0
    /// A CONNACK (of any code) arrived since the connection attempt began.
    var answeredThisAttempt = false
    /// Filter → the delay before asking again after its last refusal (doubles up to `subscribeRetryMaxS`).
    var subscribeRetryDelayS: [String: Double] = [:]
    /// Filter → when (monotonic seconds) the supervisor asks for it again after a refusal.
    var resubscribeAtS: [String: Double] = [:]
    /// The broker's last CONNACK refusal since the last successful connect (cleared by a CONNACK 0).
    var lastRefusal: String?
    /// Index into `configuration.brokers` of the broker in use or being tried.
    var brokerIndex = 0
    /// An attempt on the current broker failed (refused, lost, unreachable) since the loop last (re)started.
    var attemptFailed = false
    /// The failure was the MQTT 5 refusal of `.auto`: ask the same broker again, in 3.1.1.
    var retrySameBroker = false
    /// The loop's connect_async failed (refused, DNS): libmosquitto's thread then sleeps until some call
    /// leaves the `new` state, and it makes none itself, so only our restart can connect.
    var connectNotIssued = false
}
