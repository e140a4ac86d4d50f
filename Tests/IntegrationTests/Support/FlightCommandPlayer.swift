import Foundation
import Logging
import QuadMQTT
import QuadProtocol

/// Plays drone-controller's part towards drone-link: publishes the current `FlightCommand` (binary, QoS 0, as the
/// controller does) about 30 times a second from a thread of its own, until told to stop — a "dead controller" is
/// `stop()`. A thread, not a task: a test process whose cooperative pool is busy (other suites block it in waits)
/// must not starve the command stream, or drone-link falls back to hover after 250 ms as it should.
final class FlightCommandPlayer: @unchecked Sendable {
    /// The fields a test sets; sequence and timestamp are stamped per publish.
    struct Setting: Sendable, Equatable {
        var refMode: FlightCommand.RefMode = .land
        var progressive = false
        var rollFrac: Float = 0
        var pitchFrac: Float = 0
        var gazFrac: Float = 0
        /// Non-zero: a takeoff (a link takes a landed vehicle up only for one; `fly` alone keeps it flying).
        var takeoffId: UInt32 = 0
    }

    let client: MQTTClient
    let topic: String
    private let lock = NSLock()
    private var setting = Setting()
    private var sequence: UInt32 = 0
    private var running = false
    private var finished: DispatchSemaphore?

    init(port: UInt16, drone: String) async throws {
        var logger = Logger(label: "test.flight-command.\(drone)")
        logger.logLevel = .warning
        client = try MQTTClient(configuration: .init(port: Int32(port), clientId: "test-commands-\(drone)"),
                                logger: logger)
        topic = Topics.flightCommand.topic(for: DroneID(rawValue: drone) ?? .default)
        try client.start()
        guard await client.waitUntilConnected(timeout: TestEnvironment.readinessTimeout) else {
            throw TestEnvironmentError.timeout("flight command publisher connecting to port \(port)")
        }
    }

    /// What the next publishes say; starts the 30 Hz loop if it is not running.
    func play(_ newSetting: Setting) {
        lock.withLock {
            setting = newSetting
            guard !running else { return }
            running = true
            let done = DispatchSemaphore(value: 0)
            finished = done
            let thread = Thread { [weak self] in
                while let self, self.lock.withLock({ self.running }) {
                    self.publishCurrent()
                    usleep(33_000)
                }
                done.signal()
            }
            thread.start()
        }
    }

    /// Stops the loop; no command is published after this returns.
    func stop() async {
        let done: DispatchSemaphore? = lock.withLock {
            running = false
            defer { finished = nil }
            return finished
        }
        done?.wait()
    }

    /// One publish of `setting` (after `stop()`: the last command the link will ever get).
    func publishOnce(_ oneShot: Setting) {
        lock.withLock { setting = oneShot }
        publishCurrent()
    }

    private func publishCurrent() {
        let command: FlightCommand = lock.withLock {
            sequence &+= 1
            return FlightCommand(sequence: sequence, timestampUs: Int64(Date().timeIntervalSince1970 * 1e6),
                                 refMode: setting.refMode, progressive: setting.progressive,
                                 rollFrac: setting.rollFrac, pitchFrac: setting.pitchFrac, gazFrac: setting.gazFrac,
                                 takeoffId: setting.takeoffId)
        }
        // QoS 0 as on the real bus; a publish refused while reconnecting is simply the next one's job.
        _ = try? client.publish(topic: topic, payload: command.encoded(), qos: Topics.flightCommand.qos.rawValue,
                                retain: false)
    }

    deinit {
        lock.withLock { running = false }
        client.shutdown()
    }
}
