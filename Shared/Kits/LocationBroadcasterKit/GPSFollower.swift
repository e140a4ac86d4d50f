import GPSD
import GroundStation
import Navigation
import QuadProtocol
import QuadService

/// The follow loop: gpsd bytes (GPSDClient, which reconnects) → GPSDStream → FollowStateMachine → targets on the
/// bus. While there is no good fix nothing is published (the drone keeps the last target).
struct GPSFollower: Sendable {
    let runtime: ServiceRuntime
    /// The controller's state: every target is addressed to its run (none known yet = unaddressed).
    let feed: BusFeed
    let gpsd: GPSDAddress
    let configuration: FollowStateMachine.Configuration

    func run() async {
        var machine = FollowStateMachine(configuration: configuration)
        var stream = GPSDStream()
        var reportedUnreachable = false
        let client = GPSDClient(address: gpsd, openingCommand: stream.openingCommand)
        await client.run { event in
            switch event {
            case .connected:
                reportedUnreachable = false
                stream = GPSDStream()
                say("connected to gpsd at \(gpsd)")
            case .bytes(let bytes):
                for parsed in stream.receive(bytes) { handle(parsed, &machine) }
            case .idle:
                break
            case .disconnected(let reason):
                for parsed in stream.finish() { handle(parsed, &machine) }
                say("gpsd connection lost (\(reason)); reconnecting")
            case .unreachable(let reason):
                if !reportedUnreachable { say("gpsd at \(gpsd) unreachable (\(reason)); retrying") }
                reportedUnreachable = true
            }
            // The fix ages out on time even when gpsd is silent or gone.
            perform(machine.tick(now: MonotonicClock.now(), wallClock: WallClock.now()))
        }
    }

    private func handle(_ event: GPSDStream.Event, _ machine: inout FollowStateMachine) {
        let now = MonotonicClock.now()
        switch event {
        case .fix(let fix): perform(machine.fix(fix, now: now, wallClock: WallClock.now()))
        case .noFix(let reason): perform(machine.noFix(reason, now: now))
        case .version(let v): runtime.logger.info("gpsd \(TextFormat.clean(v.release, width: 64))")
        case .devices(let devices) where devices.isEmpty: say("gpsd has no GPS receiver attached")
        case .devices, .watch: break
        case .gpsdError(let message): runtime.logger.warning("gpsd error: \(TextFormat.clean(message, width: 64))")
        case .malformedLine(let error): runtime.logger.debug("ignored a malformed gpsd line: \(error)")
        case .overlongLine(let n): runtime.logger.warning("ignored an overlong gpsd line (\(n) bytes)")
        }
    }

    private func perform(_ actions: [FollowStateMachine.Action]) {
        for action in actions {
            switch action {
            case .publishTarget(var target):
                target.controllerRunId = feed.latest.controller?.runId ?? RunAddress.none
                do {
                    try runtime.publish(Topics.target, payload: target.encoded(),
                                        expiryS: MessageExpiry.seconds(forTTL: target.ttlS))
                    runtime.logger.debug("target \(target.sequence) sent")
                } catch {
                    runtime.logger.warning("target not sent: \(error)")
                }
            case .reportFixAcquired(let p):
                say("GPS fix \(TextFormat.coordinate(latitudeDeg: p.latitudeDeg, longitudeDeg: p.longitudeDeg)); "
                    + "sending it as the target")
            case .reportNoFix(let reason, let last):
                let keeping = last.map {
                    """
                        keeping the last target \
                        \(TextFormat.coordinate(latitudeDeg: $0.latitudeDeg, longitudeDeg: $0.longitudeDeg))
                        """
                } ?? "no target sent yet"
                say("no GPS fix (\(Self.describe(reason))); \(keeping)")
            case .reportStaleFix(let problem, let sending, let last):
                say(Self.describe(problem, sending: sending, lastTarget: last))
            }
        }
    }

    /// "gps fix is 842 s old — receiver clock or a replayed log?; not sending it (…)": a position did arrive, so
    /// this must never read as "no fix".
    static func describe(_ problem: FollowStateMachine.FixTimeProblem, sending: Bool, lastTarget: GeoPoint?) -> String {
        let what: String
        switch problem {
        case .offClock(let ageS) where ageS >= 0: what = "gps fix is \(TextFormat.fixed(ageS, digits: 0)) s old"
        case .offClock(let ageS):
            what = "gps fix is \(TextFormat.fixed(-ageS, digits: 0)) s ahead of this computer's clock"
        case .jumped(let jumpS):
            what = "gps fix time jumped \(TextFormat.fixed(jumpS, digits: 0)) s from the previous fix"
        }
        let action = sending ? "sending it anyway (--accept-stale)" : "not sending it (--accept-stale would); "
            + (lastTarget.map {
                """
                    keeping the last target \
                    \(TextFormat.coordinate(latitudeDeg: $0.latitudeDeg, longitudeDeg: $0.longitudeDeg))
                    """
            } ?? "no target sent yet")
        return "\(what) — receiver clock or a replayed log?; \(action)"
    }

    static func describe(_ reason: FollowStateMachine.NoFixReason) -> String {
        switch reason {
        case .noFixYet: "waiting for the first fix"
        case .gpsd(.mode(let m)): m == 1 ? "receiver reports no fix" : "fix mode \(m)"
        case .gpsd(let other): "unusable report: \(other)"
        case .stale: "fix too old"
        case .inaccurate(let e): "horizontal error \(TextFormat.fixed(e, digits: 0)) m"
        }
    }
}
