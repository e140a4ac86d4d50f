import MAVLinkCompanion
import QuadProtocol
import QuadService

/// Numbers and stamps the state machine's bus messages, then publishes them without blocking the link thread.
struct CompanionPublisher {
    private var bus: NonBlockingPublisher
    private var droneStateSequence = SequenceCounter()
    private var positionSequence = SequenceCounter()
    private var linkStatusSequence = SequenceCounter()

    init(runtime: ServiceRuntime) {
        bus = NonBlockingPublisher(runtime: runtime)
    }

    mutating func perform(_ action: CompanionAction) {
        switch action {
        case .publishDroneState(var state):
            state.sequence = droneStateSequence.next()
            state.timestampUs = WallClock.nowUs()
            bus.publish(Topics.droneState, state)
        case .publishPosition(var fix):
            fix.sequence = positionSequence.next()
            fix.timestampUs = WallClock.nowUs()
            bus.publish(Topics.position, fix)
        case .publishLinkStatus(var status):
            status.sequence = linkStatusSequence.next()
            status.timestampUs = WallClock.nowUs()
            bus.publish(Topics.linkStatus, status)
        case .send, .log:
            break
        }
    }
}
