import DatagramIO
import Logging
import MAVLinkCompanion
import NetworkEndpoint
import QuadProtocol
import QuadService
import VehicleLinkKit

/// mavlink-link's side of the shared link loop: the `CompanionStateMachine` deciding, MAVLink through a transport
/// (a bound UDP socket or a serial port) that the driver does not look into.
struct CompanionDriver<Transport: MAVLinkTransport>: LinkDriver {
    var machine: CompanionStateMachine
    var transport: Transport
    var publisher: VehicleTelemetryPublisher
    let logger: Logger
    var sendErrors = SendErrorLog()
    /// The held airspace, plan and progress from the bus, for the autopilot's fence and mission (nil: none
    /// subscribed, e.g. in a test).
    var boardLists: BoardListMailboxes?
    private var missionStatusSequence: UInt32 = 0

    init(machine: CompanionStateMachine, transport: Transport, publisher: VehicleTelemetryPublisher,
         logger: Logger) {
        self.machine = machine
        self.transport = transport
        self.publisher = publisher
        self.logger = logger
    }

    var descriptors: [Int32] { transport.descriptors }

    func starting() { logger.info("MAVLink on \(transport.description); waiting for the autopilot") }

    mutating func drainDatagrams() {
        perform(transport.drain(into: &machine, now: MonotonicClock.now()))
        // Checked on every pass of the loop (at least the setpoint stream's 20 Hz while running).
        if let boardLists { perform(boardLists.deliver(to: &machine, now: MonotonicClock.now())) }
    }

    func stopped() {
        let c = machine.counters
        logger.notice("""
            MAVLink frames \(c.frames), bad CRC \(c.badCRC), unknown ids \(c.unknownMessage), truncated \
            \(c.truncated), bad flags \(c.unsupportedFlags), skipped bytes \(c.skippedBytes), send errors \
            \(sendErrors.count)
            """)
    }

    mutating func perform(_ actions: [CompanionAction]) {
        for action in actions {
            switch action {
            case .send(let bytes):
                if let error = transport.send(bytes) {
                    sendErrors.record(error, sending: "to the autopilot", logger: logger)
                }
            case .log(let level, let text):
                logger.log(level: level, "\(text)")
            case .publishDroneState(let state):
                publisher.droneState(state)
            case .publishPosition(let fix):
                publisher.position(fix)
            case .publishLinkStatus(let status):
                publisher.linkStatus(status)
            case .publishFenceStatus(let status):
                publisher.fenceStatus(status)
            case .publishAutopilotMission(var status):
                // Numbered per run, as the controller's mission status: a new answer tells itself from the retained.
                missionStatusSequence &+= 1
                status.sequence = missionStatusSequence
                publisher.publish(Topics.missionAutopilot, bytes: status.encoded())
            }
        }
    }
}

extension CompanionDriver where Transport == UDPTransport {
    init(machine: CompanionStateMachine, socket: UDPSocket, listen: UDPEndpoint, publisher: VehicleTelemetryPublisher,
         logger: Logger) {
        self.init(machine: machine, transport: UDPTransport(socket: socket, listen: listen), publisher: publisher,
                  logger: logger)
    }

    /// Where the autopilot's datagrams come from.
    var peer: UDPEndpoint? { transport.peer }

    /// One datagram from whoever wrote to the socket.
    mutating func datagram(_ bytes: [UInt8], from: UDPEndpoint, now: MonotonicInstant) {
        perform(transport.datagram(bytes, from: from, into: &machine, now: now))
    }
}

extension CompanionStateMachine: LinkMachine {}
