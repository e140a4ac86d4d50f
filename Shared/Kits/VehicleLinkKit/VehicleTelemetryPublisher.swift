import QuadProtocol
import QuadService

/// A vehicle link's bus messages (drone-link's from navdata, mavlink-link's from MAVLink), numbered per topic and
/// stamped with wall time, published without blocking the link thread.
package struct VehicleTelemetryPublisher {
    private(set) var bus: NonBlockingPublisher
    private var droneStateSequence = SequenceCounter()
    private var positionSequence = SequenceCounter()
    private var linkStatusSequence = SequenceCounter()
    private var fenceStatusSequence = SequenceCounter()

    package init(runtime: ServiceRuntime) {
        bus = NonBlockingPublisher(runtime: runtime)
    }

    /// Messages dropped because the broker was away.
    package var droppedWhileDisconnected: Int { bus.droppedWhileDisconnected }

    package mutating func droneState(_ state: DroneState) {
        var state = state
        state.sequence = droneStateSequence.next()
        state.timestampUs = WallClock.nowUs()
        bus.publish(Topics.droneState, state)
    }

    package mutating func position(_ fix: PositionFix) {
        var fix = fix
        fix.sequence = positionSequence.next()
        fix.timestampUs = WallClock.nowUs()
        bus.publish(Topics.position, fix)
    }

    package mutating func linkStatus(_ status: LinkStatus) {
        var status = status
        status.sequence = linkStatusSequence.next()
        status.timestampUs = WallClock.nowUs()
        bus.publish(Topics.linkStatus, status)
    }

    /// mavlink-link: whether the autopilot's own fence holds the held airspace (`airspace/fence`).
    package mutating func fenceStatus(_ status: AirspaceStatus) {
        var status = status
        status.sequence = fenceStatusSequence.next()
        status.timestampUs = WallClock.nowUs()
        bus.publish(Topics.airspaceFence, status)
    }

    /// A payload its own codec encoded and numbered (mavlink-link's `mission/autopilot`).
    package mutating func publish<Payload>(_ spec: TopicSpec<Payload>, bytes: [UInt8]) {
        bus.publish(spec, bytes: bytes)
    }
}
