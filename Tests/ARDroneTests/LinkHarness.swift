import ARDrone
import QuadProtocol

/// Drives a `LinkStateMachine` with explicit times and records what it did (test support).
struct LinkHarness {
    var machine = LinkStateMachine()
    /// Every action with the time of the event that produced it.
    private(set) var log: [(timeUs: Int64, action: LinkAction)] = []
    private(set) var nowUs: Int64 = 0
    private var navdataSequence: UInt32 = 0

    static let demoState: DroneStateFlags = [.navdataDemo, .picVersionOK, .atCodecThreadOn, .navdataThreadOn]
    static let demo = NavdataDemo(majorState: 2, batteryPercent: 80, pitchDeg: 0, rollDeg: 0, yawDeg: 90,
                                  altitudeM: 0, velocityXMps: 0, velocityYMps: 0, velocityZMps: 0)

    @discardableResult
    mutating func start(at timeUs: Int64 = 0) -> [LinkAction] {
        record(timeUs) { $0.start(now: .init(us: timeUs)) }
    }

    @discardableResult
    mutating func command(_ command: FlightCommand, at timeUs: Int64) -> [LinkAction] {
        advance(to: timeUs)
        return record(timeUs) { $0.flightCommand(command, now: .init(us: timeUs)) }
    }

    @discardableResult
    mutating func datagram(_ bytes: [UInt8], at timeUs: Int64) -> [LinkAction] {
        advance(to: timeUs)
        return record(timeUs) { $0.navdataDatagram(bytes, now: .init(us: timeUs)) }
    }

    /// A valid packet with the next sequence number (demo option unless `options` says otherwise).
    @discardableResult
    mutating func navdata(_ state: DroneStateFlags = demoState, options: [NavdataOption] = [.demo(demo)],
                          at timeUs: Int64) -> [LinkAction] {
        navdataSequence += 1
        return datagram(NavdataPacket(state: state, sequence: navdataSequence, options: options).encoded(), at: timeUs)
    }

    /// Calls `tick` at every deadline up to and including `timeUs`, the way the executable does.
    mutating func advance(to timeUs: Int64) {
        while let deadline = machine.nextDeadline?.us, deadline <= timeUs {
            record(deadline) { $0.tick(now: .init(us: deadline)) }
        }
        nowUs = timeUs
    }

    @discardableResult
    private mutating func record(_ timeUs: Int64, _ event: (inout LinkStateMachine) -> [LinkAction]) -> [LinkAction] {
        let actions = event(&machine)
        log += actions.map { (timeUs, $0) }
        nowUs = timeUs
        return actions
    }

    // MARK: - Views of the log

    /// AT datagrams as text with their send times.
    func sent(from: Int64 = .min, through: Int64 = .max) -> [(timeUs: Int64, text: String)] {
        log.compactMap { entry in
            guard entry.timeUs >= from, entry.timeUs <= through, case .sendAT(let bytes) = entry.action else {
                return nil
            }
            return (entry.timeUs, String(decoding: bytes, as: UTF8.self))
        }
    }

    /// The commands of the last datagram sent.
    func lastCommands() -> [String] {
        commandsOf(sent().last?.text ?? "")
    }

    func triggerTimes() -> [Int64] {
        log.compactMap { if case .sendNavdataTrigger = $0.action { $0.timeUs } else { nil } }
    }

    func statuses() -> [(timeUs: Int64, health: LinkHealth)] {
        log.compactMap { if case .publishLinkStatus(let h) = $0.action { ($0.timeUs, h) } else { nil } }
    }

    func datagrams() -> [[UInt8]] {
        log.compactMap { if case .sendAT(let bytes) = $0.action { bytes } else { nil } }
    }

    func logs() -> [String] {
        log.compactMap { if case .log(_, let text) = $0.action { text } else { nil } }
    }
}

/// The commands of an AT datagram without their sequence numbers, e.g. `["CTRL=5,0", "PCMD=0,0,0,0,0"]`.
func commandsOf(_ text: String) -> [String] {
    text.split(separator: "\r").map { line in
        let body = line.dropFirst(3) // "AT*"
        guard let equals = body.firstIndex(of: "=") else { return String(body) }
        let name = body[..<equals]
        let fields = body[body.index(after: equals)...].split(separator: ",", omittingEmptySubsequences: false)
        let arguments = fields.dropFirst()
        return arguments.isEmpty ? String(name) : "\(name)=\(arguments.joined(separator: ","))"
    }
}

/// The sequence numbers of an AT datagram, in order.
func sequencesOf(_ text: String) -> [Int] {
    text.split(separator: "\r").compactMap { line in
        guard let equals = line.firstIndex(of: "=") else { return nil }
        return Int(line[line.index(after: equals)...].prefix { $0 != "," })
    }
}

func flight(_ mode: FlightCommand.RefMode = .fly, progressive: Bool = false, pitch: Float = 0, yaw: Float = 0,
            takeoffId: UInt32 = 0, flatTrim: Bool = false, sequence: UInt32 = 1) -> FlightCommand {
    FlightCommand(sequence: sequence, timestampUs: 0, refMode: mode, flatTrim: flatTrim, progressive: progressive,
                  pitchFrac: pitch, yawFrac: yaw, takeoffId: takeoffId)
}

enum REF {
    static let land = "REF=290717696"
    static let fly = "REF=290718208"
    static let emergency = "REF=290717952"
}

extension LinkHarness {
    /// Start at 0, navdata in demo mode, the options config acknowledged and cleared: a link in steady state
    /// (connected, reason ok) by the returned time, with navdata every 50 ms up to it.
    @discardableResult
    mutating func bringUp() -> Int64 {
        start(at: 0)
        navdata(at: 10_000)           // demo mode, options not yet configured: options CONFIG goes out next
        navdata(at: 60_000)
        navdata(Self.demoState.union(.controlCommandAck), at: 110_000)
        navdata(Self.demoState.union(.controlCommandAck), at: 160_000)
        navdata(at: 210_000)          // ACK cleared: configured
        return 210_000
    }
}
