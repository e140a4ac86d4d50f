import Clocks
import DatagramIO
import MAVLinkCompanion

/// `--serial DEVICE [--baud N] [--flow-control]`.
struct SerialSettings: Equatable, Sendable {
    var device: String
    var baud: Int
    var flowControl: Bool

    func open() throws(SerialOpenFailure) -> SerialPort {
        try SerialPort(device: device, baud: baud, flowControl: flowControl)
    }
}

/// The serial port as mavlink-link's transport: a byte stream into the parser (frames split across reads are
/// reassembled there), a device that vanishes closed and opened again every second (`SerialLinkWatch`).
struct SerialTransport: MAVLinkTransport {
    let settings: SerialSettings
    private(set) var port: SerialPort?
    private(set) var watch: SerialLinkWatch
    /// Reads per wake-up at most, so a flooding device cannot keep the thread from its timers.
    static let maxReadsPerDrain = 64

    /// With the port opened at the start (`now`).
    init(settings: SerialSettings, port: SerialPort, now: MonotonicInstant) {
        self.settings = settings
        self.port = port
        watch = SerialLinkWatch(device: settings.device, baud: settings.baud, openedAt: now)
    }

    var descriptors: [Int32] { port.map { [$0.descriptor] } ?? [] }
    var description: String {
        "serial \(settings.device) at \(settings.baud) baud" + (settings.flowControl ? " with RTS/CTS" : "")
    }

    mutating func drain(into machine: inout CompanionStateMachine, now: MonotonicInstant) -> [CompanionAction] {
        guard let port else { return reopenIfDue(now: now) }
        var actions: [CompanionAction] = []
        reading: for _ in 0..<Self.maxReadsPerDrain {
            switch port.read() {
            case .bytes(let bytes):
                let framesBefore = machine.counters.frames
                actions += machine.streamBytes(bytes, now: now)
                actions += watch.received(bytes: bytes.count, frames: machine.counters.frames - framesBefore, now: now)
            case .nothing:
                break reading
            case .gone(let reason):
                self.port = nil
                return actions + watch.lost(reason, now: now) + machine.transportLost(now: now)
            }
        }
        return actions + watch.check(now: now)
    }

    private mutating func reopenIfDue(now: MonotonicInstant) -> [CompanionAction] {
        guard watch.reopenDue(now: now) else { return [] }
        do {
            port = try settings.open()
            return watch.reopened(now: now)
        } catch {
            watch.reopenFailed(now: now)
            return [.log(.debug, "opening \(settings.device) again: \(error)")]
        }
    }

    mutating func send(_ bytes: [UInt8]) -> Int32? {
        guard let port else { return nil }
        return port.write(bytes)
    }
}
