/// Switches the drone to demo navdata with the magneto and GPS options, one AT*CONFIG at a time, through the
/// handshake of the SDK (the Developer Guide's AT*CONFIG acknowledgement): send the config, wait for navdata state
/// bit 6 (ACK), send `AT*CTRL=n,5,0` on every datagram until bit 6 clears, then go on with the next config.
///
/// objc.io fired its configs back-to-back with no confirmation; node-ar-drone sends the clearing CTRL once and
/// waits forever if that datagram is lost. Here the config is re-sent after `ackTimeoutUs` without ACK, and the
/// CTRL is repeated until the bit is seen clear.
struct NavdataConfigurator: Sendable, Equatable {
    /// DEMO | MAGNETO | GPS = 1 | 1<<22 | 1<<27.
    static let navdataOptionsMask: UInt32 = 1 | 1 << 22 | 1 << 27
    static let navdataSteps: [ATCommand] = [
        .config(key: "general:navdata_demo", value: "TRUE"),
        .config(key: "general:navdata_options", value: "\(navdataOptionsMask)"),
    ]
    /// The navdata configs, then the flight envelope's (redone with the options after every reconnect: a
    /// rebooted drone is back at its defaults).
    let steps: [ATCommand]

    enum Phase: Sendable, Equatable {
        case idle
        /// Wants to send `steps[step]`; first clears a stale ACK bit if navdata shows one.
        case pending(step: Int)
        case awaitingAck(step: Int, sentUs: Int64)
        case clearingAck(step: Int)
    }

    private(set) var phase = Phase.idle
    /// Bit 6 of the last accepted packet.
    private var ackBitSet = false
    /// The options mask took once this session; not re-sent while the drone stays in demo mode.
    private var optionsConfigured = false
    /// Gives the drone time to switch modes after a finished sequence before judging its state bits again.
    private var settledAfterUs: Int64 = .min
    let ackTimeoutUs: Int64

    init(ackTimeoutUs: Int64, envelope: DroneEnvelope? = nil) {
        self.ackTimeoutUs = ackTimeoutUs
        steps = Self.navdataSteps + (envelope?.configs ?? [])
    }

    var isConfiguring: Bool { phase != .idle }

    /// Navdata went away: whatever was outstanding may be lost; start over when it comes back.
    mutating func reset() {
        phase = .idle
        ackBitSet = false
        settledAfterUs = .min
    }

    /// Looks at an accepted packet's state bits. Returns log lines.
    mutating func observe(_ state: DroneStateFlags, nowUs: Int64) -> [LinkAction] {
        ackBitSet = state.contains(.controlCommandAck)
        switch phase {
        case .idle:
            guard nowUs >= settledAfterUs else { return [] }
            if state.contains(.navdataBootstrap) || !state.contains(.navdataDemo) {
                phase = .pending(step: 0)
                optionsConfigured = false
                let mode = state.contains(.navdataBootstrap) ? "bootstrap" : "full"
                return [.log(.info, "navdata in \(mode) mode: configuring demo navdata")]
            }
            if !optionsConfigured {
                phase = .pending(step: 1)
                return [.log(.info, "requesting navdata options demo|magneto|GPS (\(Self.navdataOptionsMask))"
                    + (steps.count > 2 ? " and the flight envelope" : ""))]
            }
            return []
        case .pending:
            return []
        case .awaitingAck(let step, _):
            guard ackBitSet else { return [] }
            phase = .clearingAck(step: step)
            return [.log(.debug, "drone acknowledged \(describe(step)); clearing the ACK bit")]
        case .clearingAck(let step):
            guard !ackBitSet else { return [] }
            if step + 1 < steps.count {
                phase = .pending(step: step + 1)
            } else {
                phase = .idle
                optionsConfigured = true
                settledAfterUs = nowUs &+ ackTimeoutUs
            }
            return [.log(.info, "\(describe(step)) took")]
        }
    }

    /// The handshake's commands for the datagram about to be sent (at most one CONFIG or one CTRL).
    mutating func commandsForDatagram(nowUs: Int64) -> (commands: [ATCommand], logs: [LinkAction]) {
        switch phase {
        case .idle:
            return ([], [])
        case .pending(let step):
            // A stale ACK would be read as acceptance of the new config: clear it first.
            if ackBitSet { return ([.ctrl(mode: ATControlMode.ack)], []) }
            phase = .awaitingAck(step: step, sentUs: nowUs)
            return ([steps[step]], [])
        case .awaitingAck(let step, let sentUs):
            guard nowUs &- sentUs >= ackTimeoutUs else { return ([], []) }
            phase = .awaitingAck(step: step, sentUs: nowUs)
            let waitedMs = (nowUs &- sentUs) / 1000
            let text = "no ACK for \(describe(step)) after \(waitedMs) ms: sending it again"
            return ([steps[step]], [.log(.warning, text)])
        case .clearingAck:
            return ([.ctrl(mode: ATControlMode.ack)], [])
        }
    }

    private func describe(_ step: Int) -> String {
        guard step >= 0, step < steps.count, case .config(let key, let value) = steps[step] else { return "config" }
        return "\(key)=\(value)"
    }
}
