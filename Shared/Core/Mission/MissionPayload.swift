import Checksums
import Clocks
import QuadProtocol

/// Any of the four mission payloads, told apart by their header's kind: what a recorder that sees every topic (the
/// telemetry-logger) decodes, and shows in the same flat JSON form as the bus's messages.
public enum MissionPayload: Sendable, Equatable {
    case upload(MissionUpload)
    case command(MissionCommand)
    case progress(MissionProgress)
    case status(MissionStatus)

    /// Whether `payload` starts with the mission header's magic: a mission payload, or a broken one.
    public static func hasMagic(_ payload: [UInt8]) -> Bool {
        payload.count >= 2 && Array(payload[0..<2]) == MissionWireHeader.magic
    }

    /// The payload decoded as its header's kind says; each decoder's own checks and errors.
    public static func decode(_ payload: [UInt8]) throws(MissionWireError) -> MissionPayload {
        guard payload.count >= MissionWireHeader.byteCount else {
            throw .truncated(neededBytes: MissionWireHeader.byteCount, gotBytes: payload.count)
        }
        guard let kind = MissionWireHeader.Kind(rawValue: payload[2]) else {
            throw .wrongKind(expected: MissionWireHeader.Kind.upload.rawValue, got: payload[2])
        }
        return switch kind {
        case .upload: .upload(try MissionUpload(decoding: payload))
        case .command: .command(try MissionCommand(decoding: payload))
        case .progress: .progress(try MissionProgress(decoding: payload))
        case .status: .status(try MissionStatus(decoding: payload))
        }
    }

    /// `mission_upload`, `mission_command`, `mission_progress` or `mission_status`.
    public var typeName: String {
        switch self {
        case .upload: "mission_upload"
        case .command: "mission_command"
        case .progress: "mission_progress"
        case .status: "mission_status"
        }
    }

    /// One flat JSON object, `type` first, as the bus messages' view (`WireMessage.jsonObjectText`); checksums as
    /// the ground prints them (`0x…`).
    public func jsonObjectText() -> String {
        var object = JSONObjectWriter()
        object.add("type", typeName)
        switch self {
        case .upload(let upload):
            object.add("sender_id", upload.senderId)
            object.add("plan_checksum", CRC32.text(upload.plan.checksum))
            object.add("items", upload.plan.items.count)
            object.add("cruise_speed_mps", upload.plan.cruiseSpeedMps)
        case .command(let command):
            object.add("sender_id", command.senderId)
            object.add("plan_checksum", CRC32.text(command.planChecksum))
            switch command.kind {
            case .start: object.add("kind", "start")
            case .pause: object.add("kind", "pause")
            case .resume: object.add("kind", "resume")
            case .abort: object.add("kind", "abort")
            case .goto(let item):
                object.add("kind", "goto")
                object.add("item", item)
            }
        case .progress(let progress):
            let record = progress.record
            object.add("plan_checksum", CRC32.text(record.planChecksum))
            object.add("state", record.state.jsonName)
            object.add("phase", record.phase.jsonName)
            object.add("current_item", record.currentItem)
            object.add("stay_left_ms", record.stayLeft.us / 1000)
            object.add("elapsed_ms", record.elapsed.us / 1000)
            object.add("remaining_distance_m", progress.remainingDistanceM)
            object.add("remaining_time_ms", progress.remainingTime.us / 1000)
            object.add("reached", record.reached.count)
            object.addOptional("last_reached_item", record.reached.last?.id)
            object.add("last_reached_error_m", record.reached.last?.arrivalErrorM)
        case .status(let status):
            object.add("sequence", status.sequence)
            object.addOptional("held_checksum", status.heldChecksum.map(CRC32.text))
            object.addOptional("refused_checksum", status.refusal.map { CRC32.text($0.planChecksum) })
            object.addOptional("refused_item", status.refusal?.item)
            object.addOptional("refusal", status.refusal?.reason)
        }
        return object.finished()
    }
}

extension MissionState {
    /// Its name in JSON views: `idle`, `running`, `paused`, `holding_after_restart`, `returning`, `completed`,
    /// `aborted`.
    public var jsonName: String {
        switch self {
        case .idle: "idle"
        case .running: "running"
        case .paused: "paused"
        case .holdingAfterRestart: "holding_after_restart"
        case .returning: "returning"
        case .completed: "completed"
        case .aborted: "aborted"
        }
    }
}

extension MissionPhase {
    /// Its name in JSON views: `approaching`, `taking_off`, `staying`, `landing`.
    public var jsonName: String {
        switch self {
        case .approaching: "approaching"
        case .takingOff: "taking_off"
        case .staying: "staying"
        case .landing: "landing"
        }
    }
}
