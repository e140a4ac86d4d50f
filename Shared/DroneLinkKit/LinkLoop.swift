import ARDrone
import DatagramIO
import Logging
import QuadProtocol
import QuadService
#if canImport(Glibc)
import Glibc
#endif

/// The link's own thread: sleeps in poll() until the state machine's next deadline, a navdata datagram or a
/// flight command (self-pipe), feeds the event in and performs the actions. Nothing here waits for the broker.
struct LinkLoop {
    var machine: LinkStateMachine
    let atSocket: UDPSocket
    let navdataSocket: UDPSocket
    let inbox: WakeInbox<FlightCommand>
    var publisher: TelemetryPublisher
    let logger: Logger
    private var sendErrors = 0
    private var lastSendErrorLogUs: Int64?

    init(machine: LinkStateMachine, atSocket: UDPSocket, navdataSocket: UDPSocket, inbox: WakeInbox<FlightCommand>,
         publisher: TelemetryPublisher, logger: Logger) {
        self.machine = machine
        self.atSocket = atSocket
        self.navdataSocket = navdataSocket
        self.inbox = inbox
        self.publisher = publisher
        self.logger = logger
    }

    /// Runs until `inbox.requestStop()`; the last datagram is hover.
    mutating func run() {
        logger.info("AT commands to \(atSocket.peer), navdata from \(navdataSocket.peer)")
        perform(machine.start(nowUs: MonotonicClock.nowUs()))
        // Larger than NAVDATA_MAX_SIZE so an oversized datagram is seen as such instead of silently truncated.
        var buffer = [UInt8](repeating: 0, count: 8192)
        while true {
            waitForEvent(untilUs: machine.nextDeadlineUs ?? MonotonicClock.nowUs() + 1_000_000)
            while let datagram = navdataSocket.receive(into: &buffer) {
                perform(machine.navdataDatagram(datagram, nowUs: MonotonicClock.nowUs()))
            }
            let (commands, stop) = inbox.take()
            for command in commands {
                perform(machine.flightCommand(command, nowUs: MonotonicClock.nowUs()))
            }
            if stop {
                perform(machine.stop(nowUs: MonotonicClock.nowUs()))
                return
            }
            let nowUs = MonotonicClock.nowUs()
            if let deadline = machine.nextDeadlineUs, nowUs >= deadline {
                perform(machine.tick(nowUs: nowUs))
            }
        }
    }

    private func waitForEvent(untilUs deadlineUs: Int64) {
        PollWait.untilReadable([navdataSocket.descriptor, inbox.wakeDescriptor],
                               timeoutUs: deadlineUs - MonotonicClock.nowUs())
    }

    private mutating func perform(_ actions: [LinkAction]) {
        for action in actions {
            switch action {
            case .sendAT(let bytes):
                if let error = atSocket.send(bytes) { sendFailed("AT datagram", error) }
            case .sendNavdataTrigger:
                if let error = navdataSocket.send(NavdataTrigger.bytes) { sendFailed("navdata trigger", error) }
            case .publishDroneState(let packet):
                publisher.droneState(packet)
            case .publishPosition(let packet):
                publisher.position(packet)
            case .publishLinkStatus(let health):
                publisher.linkStatus(health)
            case .log(let level, let text):
                logger.log(level: level.loggerLevel, "\(text)")
            }
        }
    }

    /// ECONNREFUSED (nothing listening yet) and friends: counted, logged at most every 5 s.
    private mutating func sendFailed(_ what: String, _ error: Int32) {
        sendErrors += 1
        let nowUs = MonotonicClock.nowUs()
        if let last = lastSendErrorLogUs, nowUs - last < 5_000_000 { return }
        lastSendErrorLogUs = nowUs
        logger.warning("sending \(what) failed: \(String(cString: strerror(error))) (\(sendErrors) send errors so far)")
    }
}

extension LinkLogLevel {
    var loggerLevel: Logger.Level {
        switch self {
        case .debug: .debug
        case .info: .info
        case .notice: .notice
        case .warning: .warning
        case .error: .error
        }
    }
}
