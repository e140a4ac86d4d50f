import DatagramIO
import Logging
import QuadProtocol
import QuadService
#if canImport(Glibc)
import Glibc
#endif

/// A vehicle link's pure state machine (ARDrone's `LinkStateMachine`, MAVLinkCompanion's `CompanionStateMachine`):
/// events in with the monotonic time, actions out.
package protocol LinkMachine {
    associatedtype Action
    var nextDeadline: MonotonicInstant? { get }
    mutating func start(now: MonotonicInstant) -> [Action]
    mutating func flightCommand(_ command: FlightCommand, now: MonotonicInstant) -> [Action]
    mutating func tick(now: MonotonicInstant) -> [Action]
    /// The last actions: the link leaves the vehicle hovering.
    mutating func stop(now: MonotonicInstant) -> [Action]
}

/// What a vehicle link's thread drives: its state machine with its sockets and how the machine's actions are
/// performed.
package protocol LinkDriver {
    associatedtype Machine: LinkMachine
    var machine: Machine { get set }
    /// The sockets to wait on (the inbox's wake pipe is added by the run loop).
    var descriptors: [Int32] { get }
    /// Feeds every queued datagram in.
    mutating func drainDatagrams()
    mutating func perform(_ actions: [Machine.Action])
    /// Called once before the machine starts (a log line: where the link talks to).
    func starting()
    /// Called once after the machine stopped (a log line: totals).
    func stopped()
}

extension LinkDriver {
    package func starting() {}
    package func stopped() {}
}

/// The link's own thread: sleeps in poll() until the state machine's next deadline, a datagram or a flight command
/// (self-pipe), feeds the event in and performs the actions. Nothing here waits for the broker.
package enum LinkRunLoop {
    /// Runs until `inbox.finish()` (an `Inbox.polled()`); the driver's `stop` sends the last datagram.
    package static func run<Driver: LinkDriver>(_ driver: inout Driver, inbox: Inbox<FlightCommand>) {
        driver.starting()
        driver.perform(driver.machine.start(now: MonotonicClock.now()))
        while true {
            let deadline = driver.machine.nextDeadline ?? MonotonicClock.now().advanced(by: .seconds(1))
            inbox.wait(until: deadline, alsoOn: driver.descriptors)
            driver.drainDatagrams()
            let (commands, stop) = inbox.take()
            for command in commands {
                driver.perform(driver.machine.flightCommand(command, now: MonotonicClock.now()))
            }
            if stop {
                driver.perform(driver.machine.stop(now: MonotonicClock.now()))
                driver.stopped()
                return
            }
            let now = MonotonicClock.now()
            if let deadline = driver.machine.nextDeadline, now >= deadline {
                driver.perform(driver.machine.tick(now: now))
            }
        }
    }
}

/// Failed sends (ECONNREFUSED while nothing listens yet, and friends): counted, logged at most every 5 s.
package struct SendErrorLog {
    package private(set) var count = 0
    private var lastLog: MonotonicInstant?

    package init() {}

    package mutating func record(_ error: Int32, sending what: String, logger: Logger) {
        count += 1
        let now = MonotonicClock.now()
        if let lastLog, now - lastLog < .seconds(5) { return }
        lastLog = now
        logger.warning("sending \(what) failed: \(String(cString: strerror(error))) (\(count) send errors so far)")
    }
}
