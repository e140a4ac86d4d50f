import ARDrone
import Logging
import QuadProtocol
import QuadService

/// Turns navdata into the link's bus messages, numbered and stamped, published without blocking the link thread.
struct TelemetryPublisher {
    private var bus: NonBlockingPublisher
    private var droneStateSequence = SequenceCounter()
    private var positionSequence = SequenceCounter()
    private var linkStatusSequence = SequenceCounter()

    init(runtime: ServiceRuntime) {
        bus = NonBlockingPublisher(runtime: runtime)
    }

    mutating func droneState(_ packet: NavdataPacket) {
        guard let state = packet.droneState(sequence: droneStateSequence.next(), timestampUs: WallClock.nowUs())
        else { return }
        bus.publish(Topics.droneState, state)
    }

    mutating func position(_ packet: NavdataPacket) {
        guard let fix = packet.positionFix(sequence: positionSequence.next(), timestampUs: WallClock.nowUs())
        else { return }
        bus.publish(Topics.position, fix)
    }

    mutating func linkStatus(_ health: LinkHealth) {
        let status = health.linkStatus(sequence: linkStatusSequence.next(), timestampUs: WallClock.nowUs())
        bus.runtime.logger.debug("""
            link: connected \(health.connected), reason \(health.reason), fallback hover \(health.fallbackHover), \
            navdata \(health.navdataPerSecond)/s, checksum errors \(health.checksumErrors), malformed \
            \(health.malformedPackets), stale \(health.stalePackets), MQTT drops \(bus.droppedWhileDisconnected)
            """)
        bus.publish(Topics.linkStatus, status)
    }
}
