import ARDrone
import Logging
import QuadMQTT
import QuadProtocol
import QuadService

/// Publishes the link's messages with the codec and the topic table's QoS/retain, from the link thread.
/// Never blocks: QoS 0 while the broker is away is dropped and counted (the link must not wait for MQTT).
struct TelemetryPublisher {
    let runtime: ServiceRuntime
    private var droneStateSequence = SequenceCounter()
    private var positionSequence = SequenceCounter()
    private var linkStatusSequence = SequenceCounter()
    private(set) var droppedWhileDisconnected = 0
    private var failures = 0
    private var lastFailureLogUs: Int64?

    init(runtime: ServiceRuntime) {
        self.runtime = runtime
    }

    mutating func droneState(_ packet: NavdataPacket) {
        guard let state = packet.droneState(sequence: droneStateSequence.next(), timestampUs: WallClock.nowUs())
        else { return }
        publish(Topics.droneState, state)
    }

    mutating func position(_ packet: NavdataPacket) {
        guard let fix = packet.positionFix(sequence: positionSequence.next(), timestampUs: WallClock.nowUs())
        else { return }
        publish(Topics.position, fix)
    }

    mutating func linkStatus(_ health: LinkHealth) {
        let status = health.linkStatus(sequence: linkStatusSequence.next(), timestampUs: WallClock.nowUs())
        runtime.logger.debug("""
            link: connected \(health.connected), reason \(health.reason), fallback hover \(health.fallbackHover), \
            navdata \(health.navdataPerSecond)/s, checksum errors \(health.checksumErrors), malformed \
            \(health.malformedPackets), stale \(health.stalePackets), MQTT drops \(droppedWhileDisconnected)
            """)
        publish(Topics.linkStatus, status)
    }

    private mutating func publish<Message: WireMessage>(_ spec: TopicSpec<Message>, _ message: Message) {
        do {
            try runtime.publish(spec, payload: message.encoded())
        } catch let error as MQTTError where error == .notConnected {
            droppedWhileDisconnected += 1
        } catch {
            failures += 1
            let nowUs = WallClock.monotonicUs()
            if let last = lastFailureLogUs, nowUs - last < 10_000_000 { return }
            lastFailureLogUs = nowUs
            runtime.logger.warning("publish on \(spec.path) failed: \(error) (\(failures) failures so far)")
        }
    }
}
