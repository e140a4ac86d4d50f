import ArgumentParser
import Checksums
import CommandLineSupport
import GroundStation
import Mission
import QuadMQTT
import QuadProtocol
import QuadService

/// `mission upload FILE`, `mission start|pause|resume|abort`, `mission goto N`, `mission status` (issue 37): the
/// plan flown on the board and what it is doing. One command with the action as its first argument, as `airspace`,
/// so the common options may come before `mission`.
struct MissionControlCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mission",
        abstract: "Upload a mission plan (.plan, .gpx, .csv) to the board, start, pause, resume, abort or goto an "
            + "item, or show its progress.",
        discussion: """
            upload FILE: a QGroundControl .plan, else a route file (.gpx, .csv; points without an altitude fly at \
            --altitude). Exit 0 once drone-controller acknowledges the plan's checksum (stored under its state \
            directory); 65 when the file is malformed or breaks a rule every board holds (printed with the item's \
            index; nothing is sent); 1 when no drone-controller serves --drone, or it refuses the plan (outside its \
            fence, above its ceiling, in its airspace, or a mission under way: printed with the item) or no answer \
            comes within --timeout. start, pause, resume, abort, goto N: addressed to the plan the board holds (its \
            checksum, from the retained progress); exit 0 once the progress shows it done, 1 otherwise. status: the \
            plan's checksum, state, current item, the items reached with their time and error, what is left.
            """)

    enum Action: String, ExpressibleByArgument, CaseIterable {
        case upload, start, pause, resume, abort, goto, status
    }

    @OptionGroup var options: BroadcasterOptions

    @Option(parsing: .signedNumber, help: "Seconds to wait for drone-controller's answer or progress.")
    var timeout: Double = 5

    @Option(parsing: .signedNumber, help: "Altitude of route points that have none (.gpx, .csv), metres.")
    var altitude: Double = 3

    @Argument(help: "upload, start, pause, resume, abort, goto or status.")
    var action: Action

    @Argument(help: "upload's FILE, or goto's item N.")
    var value: String?

    func validate() throws {
        guard timeout.isFinite, timeout > 0, timeout <= 3600 else { throw ValidationError("--timeout: 0 < S <= 3600") }
        guard altitude.isFinite, altitude > 0 else { throw ValidationError("--altitude: metres > 0") }
        switch action {
        case .upload: if value == nil { throw ValidationError("mission upload: which FILE?") }
        case .goto:
            guard let value, let item = Int(value), (0..<MissionPlan.maxItems).contains(item) else {
                throw ValidationError("mission goto: which item N (0…\(MissionPlan.maxItems - 1))?")
            }
        case .start, .pause, .resume, .abort, .status:
            if value != nil { throw ValidationError("mission \(action.rawValue) takes no argument") }
        }
    }

    func run() async throws {
        switch action {
        case .upload: try await upload(file: value ?? "")
        case .status: try await status()
        case .start: try await command(.start)
        case .pause: try await command(.pause)
        case .resume: try await command(.resume)
        case .abort: try await command(.abort)
        case .goto: try await command(.goto(item: Int(value ?? "") ?? 0))
        }
    }

    /// The file's plan; a broken or structurally unsafe one exits 65 naming the item, before anything is sent.
    func plan(file: String) throws -> MissionPlan {
        let shown = TextFormat.printable(file, width: 200)
        let bytes: [UInt8]
        do { bytes = try FileBytes.read(file, limit: 16 << 20) } catch {
            throw CLIFailure("mission: \(shown): \(error)")
        }
        do {
            let plan = file.lowercased().hasSuffix(".plan") ? try QGCPlanParser.plan(bytes)
                : try MissionPlan.route(text: String(decoding: bytes, as: UTF8.self), fileName: file,
                                        defaultAltitudeM: altitude)
            try plan.validateStructure()
            return plan
        } catch {
            printError("mission: \(shown) refused, nothing sent: \(error)")
            throw ExitStatus.dataError
        }
    }

    func upload(file: String) async throws {
        let resolved = try options.resolve()
        let plan = try plan(file: file)
        let checksum = plan.checksum
        say("mission \(TextFormat.printable(file, width: 200)): \(plan.items.count) items, checksum "
            + CRC32.text(checksum))
        let payload = try MissionUpload(senderId: resolved.senderId, plan: plan).encoded()
        let timeoutS = timeout
        try await BusSession.oneShot(resolved) { client in
            let watch = try await ControllerWatch.open(client: client, drone: resolved.common.drone)
            try watch.requireController()
            let before = watch.feed.latest.missionStatus?.sequence
            do {
                // Retained (the topic's rule): the plan the board holds stays on its broker for any ground tool.
                try await client.publishAndWait(topic: Topics.missionUpload.topic(for: resolved.common.drone),
                                                payload: payload, qos: 1, retain: true, expiryS: nil)
            } catch {
                throw CLIFailure("mission not acknowledged by the broker: \(error)")
            }
            // Held (its progress carries the checksum), or refused (a new status names it, with the item).
            let deadlineUs = MonotonicClock.nowUs() + Int64(timeoutS * 1_000_000)
            while MonotonicClock.nowUs() < deadlineUs {
                if watch.feed.latest.mission?.record.planChecksum == checksum {
                    say("drone-controller holds mission \(CRC32.text(checksum)) (\(plan.items.count) items)")
                    return
                }
                if let reason = Self.newRefusal(watch, since: before, of: checksum) {
                    throw CLIFailure("mission \(CRC32.text(checksum)) refused by drone-controller: \(reason)")
                }
                try await Task.sleep(for: .milliseconds(20))
            }
            throw CLIFailure("mission \(CRC32.text(checksum)): no acknowledgement from drone-controller within "
                + "\(TextFormat.fixed(timeoutS, digits: 1)) s; it holds "
                + (watch.feed.latest.mission.map { CRC32.text($0.record.planChecksum) } ?? "no plan we heard of"))
        }
    }

    func command(_ kind: Mission.MissionCommand.Kind) async throws {
        let resolved = try options.resolve()
        let timeoutS = timeout
        try await BusSession.oneShot(resolved) { client in
            let watch = try await ControllerWatch.open(client: client, drone: resolved.common.drone)
            try watch.requireController()
            guard let held = try await Self.progress(watch, timeoutS: timeoutS, until: { _ in true }) else {
                throw CLIFailure("no mission on the board of drone '\(resolved.common.drone)' (no progress within "
                    + "\(TextFormat.fixed(timeoutS, digits: 1)) s): upload one first")
            }
            let checksum = held.record.planChecksum
            let statusBefore = watch.feed.latest.missionStatus?.sequence
            let command = Mission.MissionCommand(senderId: resolved.senderId, kind: kind, planChecksum: checksum)
            do {
                try await client.publishAndWait(topic: Topics.missionCommand.topic(for: resolved.common.drone),
                                                payload: command.encoded(), qos: 1, retain: false,
                                                expiryS: resolved.commandExpiryS)
            } catch {
                throw CLIFailure("mission command not acknowledged by the broker: \(error)")
            }
            // Done (the progress shows it), or refused (a new status naming this plan says why), whichever comes first.
            let deadlineUs = MonotonicClock.nowUs() + Int64(timeoutS * 1_000_000)
            while MonotonicClock.nowUs() < deadlineUs {
                if let progress = watch.feed.latest.mission, Self.shows(kind, progress.record, before: held.record) {
                    say("mission \(CRC32.text(checksum)): \(Self.summary(progress.record))")
                    return
                }
                if let reason = Self.newRefusal(watch, since: statusBefore, of: checksum) {
                    throw CLIFailure("mission \(kind) for \(CRC32.text(checksum)): refused by drone-controller: "
                        + reason)
                }
                try await Task.sleep(for: .milliseconds(20))
            }
            throw CLIFailure("mission \(kind) for \(CRC32.text(checksum)): refused by drone-controller (its log says "
                + "why) or no answer within \(TextFormat.fixed(timeoutS, digits: 1)) s; now "
                + (watch.feed.latest.mission.map { Self.summary($0.record) } ?? "no progress"))
        }
    }

    /// Whether the progress shows the command carried out (never by its clocks alone: they move every second), and
    /// never by a state it had before the command: a pause of a paused mission (an abort of an aborted one) is refused
    /// by the board, and the retained progress must not answer for it.
    static func shows(_ kind: Mission.MissionCommand.Kind, _ record: MissionProgressRecord,
                      before: MissionProgressRecord) -> Bool {
        switch kind {
        case .start: record.state == .running && before.state != .running
        case .pause: record.state == .paused && before.state != .paused
        case .resume: record.state == .running && before.state != .running
        case .abort: record.state == .aborted && before.state != .aborted
        // Items that need no flying (a speed change, a takeoff in the air) are passed at once.
        case let .goto(item): record.currentItem == item
            || (record.currentItem > item && record.currentItem != before.currentItem)
        }
    }

    func status() async throws {
        let resolved = try options.resolve()
        let timeoutS = timeout
        try await BusSession.oneShot(resolved) { client in
            let watch = try await ControllerWatch.open(client: client, drone: resolved.common.drone)
            guard let progress = try await Self.progress(watch, timeoutS: timeoutS, until: { _ in true }) else {
                throw CLIFailure("no mission progress from drone-controller for drone '\(resolved.common.drone)' "
                    + "within \(TextFormat.fixed(timeoutS, digits: 1)) s")
            }
            for line in Self.lines(progress) { say(line) }
            if let refusal = watch.feed.latest.missionStatus?.refusal {
                say("board's last refused upload: \(CRC32.text(refusal.planChecksum)): \(refusal.reason)")
            }
            if let line = Self.autopilotLine(watch.feed.latest.autopilotMission, plan: progress.record.planChecksum) {
                say(line)
            }
        }
    }

    /// The latest progress once it satisfies `until`, or nil at the timeout.
    static func progress(_ watch: ControllerWatch, timeoutS: Double,
                         until: (MissionProgress) -> Bool) async throws -> MissionProgress? {
        let deadlineUs = MonotonicClock.nowUs() + Int64(timeoutS * 1_000_000)
        while MonotonicClock.nowUs() < deadlineUs {
            if let progress = watch.feed.latest.mission, until(progress) { return progress }
            try await Task.sleep(for: .milliseconds(20))
        }
        return nil
    }

    /// The reason of a refusal of `checksum` in a status newer than sequence `before` (the board's answer to what
    /// was just sent), nil while there is none.
    static func newRefusal(_ watch: ControllerWatch, since before: UInt32?, of checksum: UInt32) -> String? {
        guard let status = watch.feed.latest.missionStatus, status.sequence != before,
              let refusal = status.refusal, refusal.planChecksum == checksum else { return nil }
        return refusal.reason
    }

    static func summary(_ record: MissionProgressRecord) -> String {
        "\(record.state), item \(record.currentItem) (\(record.phase)), \(record.reached.count) reached"
    }

    /// What a MAVLink vehicle's autopilot holds of the plan (nil: no such status, e.g. an AR.Drone).
    static func autopilotLine(_ status: MissionStatus?, plan checksum: UInt32) -> String? {
        guard let status else { return nil }
        if status.heldChecksum == checksum {
            return "autopilot's own mission: holds this plan (it can finish it if the board dies)"
        }
        if let refusal = status.refusal, refusal.planChecksum == checksum {
            return "autopilot's own mission: not in place: \(refusal.reason)"
        }
        return "autopilot's own mission: not (yet) this plan"
    }

    /// `mission status`'s lines.
    static func lines(_ progress: MissionProgress) -> [String] {
        let record = progress.record
        var lines = ["mission \(CRC32.text(record.planChecksum)): \(summary(record)), mission time "
            + "\(TextFormat.fixed(record.elapsed.inSeconds, digits: 1)) s"]
        for reached in record.reached {
            lines.append("  item \(reached.id) reached at \(TextFormat.fixed(reached.at.inSeconds, digits: 1)) s, "
                + "\(TextFormat.fixed(reached.arrivalErrorM, digits: 1)) m off")
        }
        if record.phase == .staying {
            lines.append("  staying \(TextFormat.fixed(record.stayLeft.inSeconds, digits: 1)) s more")
        }
        lines.append("  remaining \(TextFormat.fixed(progress.remainingDistanceM, digits: 0)) m, "
            + "~\(TextFormat.fixed(progress.remainingTime.inSeconds, digits: 0)) s")
        return lines
    }
}
