import Navigation

/// Benchmark 1: a target published by a real MQTT client → broker → navigator → broker → controller → broker
/// → drone-link → the first UDP PCMD at the drone that reflects it. Targets alternate 90° left and right of the
/// drone's heading, so the yaw sign of the PCMD tells which target it was computed for.
struct CommandLatencyBench {
    let stack: ServiceStack
    /// Where the stage observer subscribes: one broker, or a cluster's nodes in the order to try them.
    let observerPorts: [UInt16]
    let targets: Int
    /// A random pause between targets, so publishing is not in step with the 30 Hz ticks. Through mavlink-link it
    /// spans a whole 50 ms setpoint period: the loop restarts right after a setpoint arrived, so a narrower range
    /// would publish at a biased phase of the link's timer.
    var pauseMs: ClosedRange<Int> = 10...40
    /// No target is sent past this monotonic instant (the fleet's time budget on a cluster); nil: all `targets`.
    var deadlineNs: Int64?

    init(stack: ServiceStack, port: UInt16, targets: Int, pauseMs: ClosedRange<Int> = 10...40) {
        self.init(stack: stack, observerPorts: [port], targets: targets, pauseMs: pauseMs)
    }

    init(stack: ServiceStack, observerPorts: [UInt16], targets: Int, pauseMs: ClosedRange<Int> = 10...40,
         deadlineNs: Int64? = nil) {
        self.stack = stack
        self.observerPorts = observerPorts
        self.targets = targets
        self.pauseMs = pauseMs
        self.deadlineNs = deadlineNs
    }

    struct Result: Sendable {
        var latencies: Distribution
        var timeouts: Int
        /// Seen by a bench subscriber: the navigator's solution, the controller's flight command.
        var navigation: Distribution
        /// Seen by a bench subscriber on the services' broker: the target itself (only when the pilot publishes on
        /// another broker: the field layout's bridge).
        var targetArrival: Distribution
        var flightCommand: Distribution
    }

    func run() async throws -> Result {
        // The target's own arrival is worth noting only where the observer sits on another broker than the pilot
        // (the field layout's board broker).
        let observer = try await StageObserver(ports: observerPorts, login: stack.brokers.observerLogin,
                                               watchTarget: observerPorts.first != stack.brokers.pilotPort,
                                               drone: stack.droneId)
        defer { observer.shutdown() }
        var arrival: [Int64] = []
        var navigation: [Int64] = []
        var flightCommand: [Int64] = []
        var samples: [Int64] = []
        var timeouts = 0
        var generator = SystemRandomNumberGenerator()
        for index in 0..<targets {
            if let deadlineNs, BenchClock.monotonicNs() > deadlineNs { break }
            if index % 100 == 0 { try stack.checkAlive() }
            let yawSign = index % 2 == 0 ? 1 : -1
            let snapshot = stack.drone.snapshot
            let point = Geodesy.destination(from: snapshot.position,
                                            bearingDeg: snapshot.headingDeg + Double(yawSign) * 90, distanceM: 30)
            let sequence = stack.nextSequence()
            let startNs = BenchClock.monotonicNs()
            observer.arm(targetSequence: sequence, yawSign: yawSign, startNs: startNs)
            stack.drone.arm(yawSign: yawSign, startNs: startNs)
            try stack.sendTarget(point, sequence: sequence)
            var latency: Int64?
            // Poll the probe; the timestamps themselves are taken by the publisher and the drone thread.
            while latency == nil, BenchClock.monotonicNs() - startNs < 1_000_000_000 {
                try await Task.sleep(for: .microseconds(500))
                latency = stack.drone.probeResultNs()
            }
            if let latency { samples.append(latency) } else { timeouts += 1 }
            let stages = observer.stages
            if let ns = stages.targetNs { arrival.append(ns) }
            if let ns = stages.navigationNs { navigation.append(ns) }
            if let ns = stages.flightCommandNs { flightCommand.append(ns) }
            try await Task.sleep(for: .milliseconds(Int.random(in: pauseMs, using: &generator)))
        }
        return Result(latencies: Distribution(samples), timeouts: timeouts, navigation: Distribution(navigation),
                      targetArrival: Distribution(arrival),
                      flightCommand: Distribution(flightCommand))
    }
}
