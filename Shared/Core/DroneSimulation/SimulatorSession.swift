import ARDrone
import Clocks

/// The drone's side of the AR.Drone protocol as a pure state machine: AT datagrams and navdata triggers in,
/// navdata datagrams, trace rows and log lines out. Time comes in with every event: the loop's monotonic clock
/// (the simulated time is that clock's, so a test may start it anywhere); timers stay microseconds inside.
public struct SimulatorSession: Sendable {
    public let configuration: SimulatorConfiguration
    public internal(set) var drone: SimulatedDrone
    /// Only the header (24 bytes, state bit 11) until `general:navdata_demo` is configured.
    public internal(set) var isBootstrap = true
    /// `general:navdata_demo`; FALSE after bootstrap means "full" navdata (here: every option we model).
    public internal(set) var isNavdataDemo = false
    /// `general:navdata_options`, bit n = option tag n. SDK default: demo | vision_detect.
    public internal(set) var navdataOptionsMask: UInt32 = 1 << 0 | 1 << 16
    /// Navdata state bit 6: set by AT*CONFIG, cleared by AT*CTRL mode 5.
    public internal(set) var isCommandAckSet = false
    /// Where navdata goes: the source address of the latest trigger datagram.
    public internal(set) var navdataClient: UDPEndpoint?
    public internal(set) var isLinkLost = false
    public internal(set) var parseErrorCount = 0
    public internal(set) var staleCommandCount = 0
    public internal(set) var sequenceFilter = ATSequenceFilter()

    var lastATUs: Int64?
    var lastTickUs: Int64
    var nextNavdataUs: Int64
    var nextTraceUs: Int64
    var navdataSequence: UInt32 = 0
    var lastReportedState: String
    var seenIgnoredCommands: Set<String> = []

    public init(configuration: SimulatorConfiguration, now: MonotonicInstant) {
        let nowUs = now.us
        self.configuration = configuration
        drone = SimulatedDrone(
            home: configuration.home, headingDeg: configuration.headingDeg,
            parameters: configuration.parameters, seed: configuration.seed
        )
        lastTickUs = nowUs
        nextNavdataUs = nowUs
        nextTraceUs = nowUs
        lastReportedState = drone.flightState.traceName
    }

    /// A datagram that arrived on the AT port (5556).
    public mutating func receiveATDatagram(
        _ bytes: [UInt8], from sender: UDPEndpoint, now: MonotonicInstant
    ) -> [SimulatorAction] {
        let nowUs = now.us
        var actions: [SimulatorAction] = []
        lastATUs = nowUs
        if isLinkLost {
            isLinkLost = false
            drone.setLinkLost(false)
            actions.append(.log("link restored: AT commands from \(sender)"))
        }
        for item in ATParser.parse(datagram: bytes) {
            switch item {
            case .failure(let error):
                parseErrorCount += 1
                if SimulatorSession.isWorthLogging(parseErrorCount) {
                    actions.append(.log("AT parse error #\(parseErrorCount) from \(sender): \(error)"))
                }
            case .success(let parsed):
                guard sequenceFilter.accept(parsed.sequence) else {
                    staleCommandCount += 1
                    if SimulatorSession.isWorthLogging(staleCommandCount) {
                        let last = sequenceFilter.lastAccepted
                        let count = staleCommandCount
                        actions.append(.log("stale AT seq \(parsed.sequence) ≤ \(last) ignored (#\(count))"))
                    }
                    continue
                }
                actions += apply(parsed.command)
            }
        }
        return actions
    }

    /// A datagram that arrived on the navdata port (5554): its content is not checked, its source is the client.
    public mutating func receiveNavdataTrigger(
        _ bytes: [UInt8], from sender: UDPEndpoint, now: MonotonicInstant
    ) -> [SimulatorAction] {
        let nowUs = now.us
        var actions: [SimulatorAction] = []
        if navdataClient != sender {
            actions.append(.log("navdata trigger (\(bytes.count) bytes) from \(sender)"))
        }
        navdataClient = sender
        actions.append(.sendNavdata(navdataPacket(nowUs: nowUs), to: sender))
        nextNavdataUs = nowUs + configuration.navdataInterval.us
        return actions
    }

    /// Called at the physics rate: advances the drone, watches the link, sends navdata and trace rows when due.
    public mutating func tick(now: MonotonicInstant) -> [SimulatorAction] {
        let nowUs = now.us
        var actions: [SimulatorAction] = []
        advancePhysics(to: nowUs)
        if let lastATUs, !isLinkLost, nowUs - lastATUs >= configuration.linkLoss.us {
            isLinkLost = true
            drone.setLinkLost(true)
            sequenceFilter.reset()
            navdataClient = nil
            let silentMs = (nowUs - lastATUs) / 1000
            actions.append(.log("link lost: no AT command for \(silentMs) ms; navdata stopped, AT seq reset"))
        }
        let state = drone.isEmergency ? "emergency" : drone.flightState.traceName
        if state != lastReportedState {
            let altitude = SimulatorSession.metres(drone.altitudeM)
            actions.append(.log("state \(lastReportedState) → \(state) at \(altitude) m"))
            lastReportedState = state
        }
        if let client = navdataClient, nowUs >= nextNavdataUs {
            actions.append(.sendNavdata(navdataPacket(nowUs: nowUs), to: client))
            nextNavdataUs = max(nextNavdataUs + configuration.navdataInterval.us, nowUs)
        }
        if nowUs >= nextTraceUs {
            actions.append(.trace(GroundTruthTrace.row(timeS: drone.elapsedS, drone: drone)))
            nextTraceUs = max(nextTraceUs + configuration.traceInterval.us, nowUs)
        }
        return actions
    }

    mutating func advancePhysics(to nowUs: Int64) {
        drone.advance(by: .microseconds(nowUs - lastTickUs), maxStep: configuration.maxPhysicsStep)
        lastTickUs = max(lastTickUs, nowUs)
    }

    /// 1, 10, 100, … : enough to notice a problem without flooding the log.
    public static func isWorthLogging(_ count: Int) -> Bool {
        var threshold = 1
        while threshold < count { threshold *= 10 }
        return threshold == count
    }

    public static func metres(_ value: Double) -> String {
        GroundTruthTrace.fixed(value, 2)
    }
}
