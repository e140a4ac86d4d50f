import Foundation
import QuadMQTT
import QuadProtocol

/// Plays drone-controller on the bus: publishes ControllerState (retained, as the real one does) and answers
/// commands or targets the way a test scripts it. Its states carry run id 0 (a 1.1 controller) unless given one.
struct FakeController: Sendable {
    let bus: BusRecorder
    let drone: String
    private let sequence = SequenceBox()

    init(bus: BusRecorder, drone: String) {
        self.bus = bus
        self.drone = drone
    }

    func publish(_ activity: ControllerState.Activity, reason: Reason, pilot: String = "", distanceM: Float? = nil,
                 target: (Double, Double)? = nil, retain: Bool = true, runId: UInt32 = 0) async throws {
        let state = ControllerState(sequence: sequence.next(), timestampUs: Int64(Date().timeIntervalSince1970 * 1e6),
                                    activity: activity, reason: reason, pilotId: pilot,
                                    targetLatitudeDeg: target?.0, targetLongitudeDeg: target?.1,
                                    distanceToTargetM: distanceM, runId: runId)
        try await bus.publish("quad/\(drone)/telemetry/controller", state.encoded(), retain: retain)
    }

    /// Retained presence on `status/drone-controller`, as the real controller announces itself.
    func announce(online: Bool = true, drone: String? = nil) async throws {
        let status = ServiceStatus(state: online ? .online : .offline, service: "drone-controller", version: "0.1.0",
                                   startedAt: 1, pid: 1)
        try await bus.publish("quad/\(drone ?? self.drone)/status/drone-controller", status.encodedJSON(), retain: true)
    }

    /// For every message on `quad/<drone>/<path>` (the bus must record it), runs `answer` with its payload.
    func answer(on path: String, _ answer: @escaping @Sendable ([UInt8]) async throws -> Void) -> Task<Void, Never> {
        Task {
            var handled = 0
            while !Task.isCancelled {
                let messages = bus.messages(on: "quad/\(drone)/\(path)")
                for received in messages.dropFirst(handled) {
                    try? await Task.sleep(for: .milliseconds(100))
                    try? await answer(received.message.payload)
                }
                handled = messages.count
                try? await Task.sleep(for: .milliseconds(50))
            }
        }
    }

    /// For every command received, publishes the scripted states in order.
    func respond(_ script: @escaping @Sendable (Command) -> [(ControllerState.Activity, Reason)]) -> Task<Void, Never> {
        Task {
            var handled = 0
            while !Task.isCancelled {
                let commands = bus.messages(on: "quad/\(drone)/command")
                for received in commands.dropFirst(handled) {
                    guard let command = try? Command(decoding: received.message.payload) else { continue }
                    for (activity, reason) in script(command) {
                        try? await Task.sleep(for: .milliseconds(200))
                        try? await publish(activity, reason: reason)
                    }
                }
                handled = commands.count
                try? await Task.sleep(for: .milliseconds(50))
            }
        }
    }

    /// For every new target position: flying, then arrived with the target's coordinates.
    func arriveAtTargets() -> Task<Void, Never> {
        Task {
            var last: (Double, Double)?
            while !Task.isCancelled {
                if let message = bus.messages(on: "quad/\(drone)/target").last,
                   let target = try? Target(decoding: message.message.payload),
                   last.map({ $0 != (target.latitudeDeg, target.longitudeDeg) }) ?? true {
                    let position = (target.latitudeDeg, target.longitudeDeg)
                    last = position
                    try? await publish(.flyingToTarget, reason: .newTarget, target: position)
                    try? await Task.sleep(for: .milliseconds(300))
                    try? await publish(.arrived, reason: .arrived, target: position)
                }
                try? await Task.sleep(for: .milliseconds(50))
            }
        }
    }
}

/// Plays drone-link's position telemetry (not retained) every 50 ms until cancelled, while a command listens. On a
/// thread of its own: as a task it went quiet whenever the test process's pool was starved, and a command that
/// judged its target against the drone's position saw none.
func talkPosition(_ lat: Double, _ lon: Double, drone: String, via bus: BusRecorder) -> PositionTalker {
    let talker = PositionTalker()
    let client = bus.client
    Thread.detachNewThread {
        var sequence: UInt32 = 0
        while !talker.isCancelled {
            sequence += 1
            let fix = PositionFix(sequence: sequence, timestampUs: 1, latitudeDeg: lat, longitudeDeg: lon,
                                  source: .manual)
            // QoS 0 before the CONNACK is refused (notConnected): keep talking regardless.
            if let payload = try? fix.encoded() {
                _ = try? client.publish(topic: "quad/\(drone)/telemetry/position", payload: payload, qos: 0,
                    retain: false)
            }
            usleep(50_000)
        }
    }
    return talker
}

final class PositionTalker: @unchecked Sendable {
    private let lock = NSLock()
    private var cancelled = false
    var isCancelled: Bool { lock.withLock { cancelled } }
    func cancel() { lock.withLock { cancelled = true } }
}

final class SequenceBox: @unchecked Sendable {
    private let lock = NSLock()
    private var value: UInt32 = 0
    func next() -> UInt32 { lock.withLock { value += 1; return value } }
}
