import DatagramIO
import Logging
import MAVLinkCompanion
import NetworkEndpoint
import QuadProtocol
import QuadService
#if canImport(Glibc)
import Glibc
#endif

/// The link's own thread: sleeps in poll() until the state machine's next deadline, a datagram or a flight command
/// (self-pipe), feeds the event in and performs the actions. Nothing here waits for the broker.
struct CompanionLoop {
    var machine: CompanionStateMachine
    let socket: BoundUDPSocket
    let inbox: WakeInbox<FlightCommand>
    var publisher: CompanionPublisher
    let logger: Logger
    /// Where the autopilot's datagrams come from (only datagrams with its frames count); nothing is sent before.
    private var peer: UDPEndpoint?
    private var sendErrors = 0
    private var lastSendErrorLogUs: Int64?

    init(machine: CompanionStateMachine, socket: BoundUDPSocket, inbox: WakeInbox<FlightCommand>,
         publisher: CompanionPublisher, logger: Logger) {
        self.machine = machine
        self.socket = socket
        self.inbox = inbox
        self.publisher = publisher
        self.logger = logger
    }

    mutating func run(listen: UDPEndpoint) {
        logger.info("MAVLink on udp \(listen); waiting for the autopilot")
        perform(machine.start(nowUs: MonotonicClock.nowUs()))
        while true {
            waitForEvent(untilUs: machine.nextDeadlineUs ?? MonotonicClock.nowUs() + 1_000_000)
            while let datagram = socket.receive() {
                let actions = machine.datagram(datagram.bytes, nowUs: MonotonicClock.nowUs())
                if machine.lastDatagramWasFromAutopilot, peer != datagram.from {
                    logger.notice("autopilot datagrams from \(datagram.from)")
                    peer = datagram.from
                }
                perform(actions)
            }
            let (commands, stop) = inbox.take()
            for command in commands { perform(machine.flightCommand(command, nowUs: MonotonicClock.nowUs())) }
            if stop {
                perform(machine.stop(nowUs: MonotonicClock.nowUs()))
                let c = machine.counters
                logger.notice("""
                    MAVLink frames \(c.frames), bad CRC \(c.badCRC), unknown ids \(c.unknownMessage), truncated \
                    \(c.truncated), bad flags \(c.unsupportedFlags), skipped bytes \(c.skippedBytes), send errors \(sendErrors)
                    """)
                return
            }
            let nowUs = MonotonicClock.nowUs()
            if let deadline = machine.nextDeadlineUs, nowUs >= deadline { perform(machine.tick(nowUs: nowUs)) }
        }
    }

    private func waitForEvent(untilUs deadlineUs: Int64) {
        PollWait.untilReadable([socket.descriptor, inbox.wakeDescriptor], timeoutUs: deadlineUs - MonotonicClock.nowUs())
    }

    private mutating func perform(_ actions: [CompanionAction]) {
        for action in actions {
            switch action {
            case .send(let bytes):
                guard let peer else { continue }
                if let error = socket.send(bytes, to: peer) { sendFailed(error) }
            case .log(let level, let text):
                logger.log(level: level, "\(text)")
            default:
                publisher.perform(action)
            }
        }
    }

    /// Counted, logged at most every 5 s.
    private mutating func sendFailed(_ error: Int32) {
        sendErrors += 1
        let nowUs = MonotonicClock.nowUs()
        if let last = lastSendErrorLogUs, nowUs - last < 5_000_000 { return }
        lastSendErrorLogUs = nowUs
        logger.warning("sending to the autopilot failed: \(String(cString: strerror(error))) (\(sendErrors) so far)")
    }
}
