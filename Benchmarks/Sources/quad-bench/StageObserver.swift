import QuadMQTT
import QuadProtocol
import Synchronization

/// Where the command latency goes: a bench subscriber to `telemetry/navigation` and `flight/command` notes when
/// the navigator's solution for the new target and the controller's first flight command with the new yaw sign
/// reach it. Each stage includes one extra broker hop to this subscriber, so it is an upper bound.
final class StageObserver: Sendable {
    struct Stages: Sendable {
        var targetNs: Int64?
        var navigationNs: Int64?
        var flightCommandNs: Int64?
    }

    private struct Current {
        var targetSequence: UInt32 = 0
        var yawSign = 0
        var startNs: Int64 = 0
        var stages = Stages()
    }

    private let current = Mutex(Current())
    private let client: MQTTClient

    /// `ports`: the broker's node, or a cluster's nodes in the order to try them. `watchTarget`: also note when the
    /// target itself arrives (the field layout: on the board, across the bridge).
    init(ports: [UInt16], login: BrokerLogin? = nil, watchTarget: Bool = false,
        drone: DroneID = .default) async throws {
        let client = try await BenchClient.connect(ports: ports, clientId: "bench-observer-\(drone)", login: login)
        self.client = client
        if watchTarget { watch(targets: try client.subscribe(Topics.target.topic(for: drone), qos: 1)) }
        let navigation = try client.subscribe(Topics.navigation.topic(for: drone), qos: 0)
        let flight = try client.subscribe(Topics.flightCommand.topic(for: drone), qos: 0)
        startTasks(navigation: navigation, flight: flight)
        try await Task.sleep(for: .milliseconds(300))
    }

    private func watch(targets: MQTTSubscription) {
        Task { [self] in
            for await message in targets {
                let arrivedNs = BenchClock.monotonicNs()
                guard let target = try? Target(decoding: message.payload) else { continue }
                current.withLock { c in
                    if target.sequence == c.targetSequence, c.stages.targetNs == nil {
                        c.stages.targetNs = arrivedNs - c.startNs
                    }
                }
            }
        }
    }

    private func startTasks(navigation: MQTTSubscription, flight: MQTTSubscription) {
        // The tasks end when the client shuts down (its subscriptions finish).
        Task { [self] in
            for await message in navigation {
                let arrivedNs = BenchClock.monotonicNs()
                guard let solution = try? NavigationSolution(decoding: message.payload) else { continue }
                current.withLock { c in
                    if solution.targetSequence == c.targetSequence, c.stages.navigationNs == nil {
                        c.stages.navigationNs = arrivedNs - c.startNs
                    }
                }
            }
        }
        Task { [self] in
            for await message in flight {
                let arrivedNs = BenchClock.monotonicNs()
                guard let command = try? FlightCommand(decoding: message.payload), command.progressive else { continue }
                current.withLock { c in
                    let sign = command.yawFrac > 0 ? 1 : command.yawFrac < 0 ? -1 : 0
                    if sign == c.yawSign, c.stages.flightCommandNs == nil, c.startNs > 0 {
                        c.stages.flightCommandNs = arrivedNs - c.startNs
                    }
                }
            }
        }
    }

    func arm(targetSequence: UInt32, yawSign: Int, startNs: Int64) {
        current.withLock { $0 = Current(targetSequence: targetSequence, yawSign: yawSign, startNs: startNs) }
    }

    var stages: Stages { current.withLock { $0.stages } }

    func shutdown() { client.shutdown() }
}
