import GroundStation
import Navigation
import QuadProtocol
import QuadService

/// The follow loop: gpsd bytes → GPSDStream → FollowStateMachine → targets on the bus. Reconnects to gpsd when it
/// goes away; while there is no good fix nothing is published (the drone keeps the last target).
struct GPSFollower: Sendable {
    let runtime: ServiceRuntime
    let gpsdHost: String
    let gpsdPort: UInt16
    let configuration: FollowStateMachine.Configuration
    var reconnectDelay: Duration = .seconds(2)

    func run() async {
        var machine = FollowStateMachine(configuration: configuration)
        var reportedUnreachable = false
        while !Task.isCancelled {
            let socket: GPSDSocket
            do {
                socket = try await GPSDSocket.connect(host: gpsdHost, port: gpsdPort)
            } catch {
                if !reportedUnreachable { say("gpsd at \(gpsdHost):\(gpsdPort) unreachable (\(error)); retrying") }
                reportedUnreachable = true
                await idle(for: reconnectDelay, &machine)
                continue
            }
            reportedUnreachable = false
            say("connected to gpsd at \(gpsdHost):\(gpsdPort)")
            var stream = GPSDStream()
            guard socket.send(stream.openingCommand) else { continue }
            let reason = await follow(socket, &stream, &machine)
            socket.close()
            guard !Task.isCancelled else { return }
            say("gpsd connection lost (\(reason)); reconnecting")
            await idle(for: reconnectDelay, &machine)
        }
    }

    /// Until the connection ends (returns why) or the task is cancelled.
    private func follow(_ socket: GPSDSocket, _ stream: inout GPSDStream,
                        _ machine: inout FollowStateMachine) async -> String {
        for await input in socket.inputs() {
            if Task.isCancelled { return "stopping" }
            switch input {
            case .bytes(let bytes):
                for event in stream.receive(bytes) { handle(event, &machine) }
            case .idle:
                break
            case .closed(let reason):
                for event in stream.finish() { handle(event, &machine) }
                return reason
            }
            perform(machine.tick(nowUs: WallClock.nowUs()))
        }
        return "stopping"
    }

    private func handle(_ event: GPSDStream.Event, _ machine: inout FollowStateMachine) {
        let now = WallClock.nowUs()
        switch event {
        case .fix(let fix): perform(machine.fix(fix, nowUs: now))
        case .noFix(let reason): perform(machine.noFix(reason, nowUs: now))
        case .version(let v): runtime.logger.info("gpsd \(Format.clean(v.release))")
        case .devices(let devices) where devices.isEmpty: say("gpsd has no GPS receiver attached")
        case .devices, .watch: break
        case .gpsdError(let message): runtime.logger.warning("gpsd error: \(Format.clean(message))")
        case .malformedLine(let error): runtime.logger.debug("ignored a malformed gpsd line: \(error)")
        case .overlongLine(let n): runtime.logger.warning("ignored an overlong gpsd line (\(n) bytes)")
        }
    }

    /// Waits (between reconnects) while still letting the fix age out.
    private func idle(for delay: Duration, _ machine: inout FollowStateMachine) async {
        let steps = max(1, Int(delay.components.seconds * 10))
        for _ in 0..<steps where !Task.isCancelled {
            try? await Task.sleep(for: .milliseconds(100))
            perform(machine.tick(nowUs: WallClock.nowUs()))
        }
    }

    private func perform(_ actions: [FollowStateMachine.Action]) {
        for action in actions {
            switch action {
            case .publishTarget(let target):
                do {
                    try runtime.publish(Topics.target, payload: target.encoded())
                    runtime.logger.debug("target \(target.sequence) sent")
                } catch {
                    runtime.logger.warning("target not sent: \(error)")
                }
            case .reportFixAcquired(let p):
                say("GPS fix \(Format.coordinate(latitudeDeg: p.latitudeDeg, longitudeDeg: p.longitudeDeg)); "
                    + "sending it as the target")
            case .reportNoFix(let reason, let last):
                let keeping = last.map {
                    "keeping the last target \(Format.coordinate(latitudeDeg: $0.latitudeDeg, longitudeDeg: $0.longitudeDeg))"
                } ?? "no target sent yet"
                say("no GPS fix (\(Self.describe(reason))); \(keeping)")
            }
        }
    }

    static func describe(_ reason: FollowStateMachine.NoFixReason) -> String {
        switch reason {
        case .noFixYet: "waiting for the first fix"
        case .gpsd(.mode(let m)): m == 1 ? "receiver reports no fix" : "fix mode \(m)"
        case .gpsd(let other): "unusable report: \(other)"
        case .stale: "fix too old"
        case .inaccurate(let e): "horizontal error \(Format.fixed(e, 0)) m"
        }
    }
}
