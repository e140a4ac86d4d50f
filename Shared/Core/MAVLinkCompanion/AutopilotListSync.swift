import Checksums
import Logging
import MAVLink
import QuadProtocol

/// The held airspace kept on the autopilot as its own fence (issue 38 item 4), so the vehicle keeps out of the
/// keep-out zones even if the board dies.
public typealias FenceSync = AutopilotListSync<FencePlan>
/// The held plan kept on the autopilot as its own mission (issue 37 item 6), so the autopilot can finish it when the
/// board dies.
public typealias MissionSync = AutopilotListSync<AutopilotMission>

/// What the board sends the autopilot while it keeps a list there.
public enum AutopilotListMessage: Sendable, Equatable {
    case count(MissionCount)
    case item(MissionItemInt)
    case requestList(MissionRequestList)
    case request(MissionRequestInt)
    case ack(MissionAck)
    case paramSet(ParamSet)
}

/// A list kept on the autopilot (`AutopilotList`). Pure: events in (with the time), messages and a status out.
///
/// One pass: upload (MAVLink mission protocol, the list's mission type: MISSION_COUNT, the autopilot asks for each
/// item by MISSION_REQUEST_INT or MISSION_REQUEST in any order and as often as it likes, MISSION_ACK ends it), then
/// the list's parameters (the fence's `FenceParameters`; only for a fence with zones: with none held the autopilot's
/// settings stay), then the list read back (MISSION_REQUEST_LIST, MISSION_COUNT, each item, our MISSION_ACK) and
/// compared. A step without an answer is sent again every `retryUs`, at most `maxAttempts` times; a refused
/// upload is tried again `maxUploads` times in all. A new list or a new autopilot connection starts over.
public struct AutopilotListSync<List: AutopilotList>: Sendable {
    public typealias Message = AutopilotListMessage

    public enum Output: Sendable, Equatable {
        case send(Message)
        case log(Logger.Level, String)
        /// What the autopilot holds (sequence and timestamp 0: the executable stamps them).
        case status(List.Status)
    }

    enum Phase: Sendable, Equatable {
        case idle, uploading, settingParameters, readingCount, readingItems, done
    }

    static var retryUs: Int64 { 1_000_000 }
    static var maxAttempts: Int { 5 }
    static var maxUploads: Int { 3 }

    let systemId: UInt8
    private(set) var plan: List?
    /// The items sent in this pass (numbered as this autopilot numbers them).
    private var items: [MissionItemInt] = []
    private(set) var phase = Phase.idle
    private var target: (system: UInt8, component: UInt8)?
    private var flavor: AutopilotFlavor?
    private var lastSent: Message?
    private var lastSentUs: Int64 = 0
    private var attempts = 0
    private var uploads = 0
    private var parameters: [FenceParameters.Setting] = []
    private var unconfirmed: [String] = []
    private var expectedCount = 0
    private var readBack: [MissionItemInt] = []
    /// Requests for an item the list does not have, and items read back out of turn: counted, never acted on.
    private(set) var ignored = 0
    /// The last pass read the board's list back from the autopilot.
    private(set) var inPlace = false

    public init(systemId: UInt8) { self.systemId = systemId }

    /// Another list's transfer is under way on this link: an autopilot runs one transfer at a time (PX4 refuses a
    /// second as busy), so a pass waits for it (`linkFreed`). The link's state machine sets it before each call.
    var linkBusy = false
    /// A pass is due but waits for the link.
    private(set) var waiting = false
    /// A new list came while the autopilot had a transfer of the last one open: it starts once that transfer
    /// ends (its ack, either way, or our read's end, or no answer). A MISSION_COUNT in the middle of PX4's own
    /// receive is refused as busy ("WPM: REJ. CMD: Busy") until PX4 times the transfer out: the fence scenario's
    /// zone, then the next stack's empty airspace a moment later, left PX4 with the old zone and refusing to arm
    /// (CI, 2026-12-04). So the open transfer is finished with the items it asked for, then the new list is sent.
    private(set) var restartPending = false

    /// A pass is under way (its messages hold the link).
    var isTransferring: Bool { ![.idle, .done].contains(phase) }

    /// The autopilot has a mission-protocol transfer of ours open (an upload or a read), not just a parameter.
    private var transferOpen: Bool { [.uploading, .readingCount, .readingItems].contains(phase) }

    /// The open transfer ended: the list held meanwhile starts now.
    private mutating func startPending(nowUs: Int64) -> [Output]? {
        guard restartPending else { return nil }
        restartPending = false
        return start(nowUs: nowUs)
    }

    /// The link is free: a waiting pass starts.
    mutating func linkFreed(nowUs: Int64) -> [Output] {
        guard waiting, !linkBusy else { return [] }
        return start(nowUs: nowUs)
    }

    /// When `tick` must run next (a retry), or nil.
    var dueUs: Int64? { [.idle, .done].contains(phase) ? nil : lastSentUs &+ Self.retryUs }

    /// The list the board holds now; the same checksum again changes nothing.
    mutating func hold(_ next: List, nowUs: Int64) -> [Output] {
        guard next.checksum != plan?.checksum else { return [] }
        plan = next
        uploads = 0
        let outputs = next.notes.map { Output.log(.notice, "\(List.logName): \($0)") }
        guard target != nil else { return outputs }
        guard !transferOpen else {
            restartPending = true
            return outputs + [.log(.info, "\(List.logName): a new one (\(CRC32.text(next.checksum))) is uploaded "
                + "once the transfer under way ends")]
        }
        return outputs + start(nowUs: nowUs)
    }

    /// The board holds none any more: nothing more is sent, and what the autopilot holds stays.
    mutating func drop() {
        plan = nil
        phase = .idle
        restartPending = false
    }

    /// Whether the autopilot's list was read back equal to `checksum`'s.
    func holds(_ checksum: UInt32) -> Bool { inPlace && plan?.checksum == checksum }

    /// The autopilot's numbering of the list's item `index` (ArduPilot's mission counts its home first).
    var firstItemSeq: Int { plan == nil || flavor != .ardupilot ? 0 : List.missionType == 0 ? 1 : 0 }

    /// The autopilot answered (again): its list may be another one now (a restart), so the pass starts over.
    mutating func connected(target: (system: UInt8, component: UInt8), flavor: AutopilotFlavor,
                            nowUs: Int64) -> [Output] {
        self.target = target
        self.flavor = flavor
        uploads = 0
        restartPending = false
        return plan == nil ? [] : start(nowUs: nowUs)
    }

    /// The autopilot went silent: nothing is sent until it answers again.
    mutating func lost() {
        target = nil
        phase = .idle
        restartPending = false
    }

    private mutating func start(nowUs: Int64) -> [Output] {
        guard let plan, let target, let flavor else { return [] }
        guard !linkBusy else {
            waiting = true
            phase = .idle
            return []
        }
        waiting = false
        uploads += 1
        phase = .uploading
        inPlace = false
        readBack = []
        unconfirmed = []
        items = plan.items(flavor: flavor)
        var count = MissionCount(count: UInt16(clamping: items.count), targetSystem: target.system,
                                 targetComponent: target.component)
        count.missionType = List.missionType
        let text = "\(List.logName): uploading \(items.count) items (\(CRC32.text(plan.checksum)))"
        return [.log(.info, text)] + status(refusal: nil) + send(.count(count), nowUs: nowUs)
    }

    private mutating func send(_ message: Message, nowUs: Int64) -> [Output] {
        lastSent = message
        lastSentUs = nowUs
        attempts = 1
        return [.send(message)]
    }

    // MARK: - Incoming

    mutating func receive(_ message: MAVLinkInbound, nowUs: Int64) -> [Output] {
        guard plan != nil, let target else { return [] }
        switch message {
        case .missionRequestInt(let request) where isOurs(request.targetSystem, request.missionType):
            return itemRequested(request.seq, target: target, nowUs: nowUs)
        case .missionRequest(let request) where isOurs(request.targetSystem, request.missionType):
            return itemRequested(request.seq, target: target, nowUs: nowUs)
        case .missionAck(let ack) where isOurs(ack.targetSystem, ack.missionType) && phase == .uploading:
            return uploadAnswered(ack.type, nowUs: nowUs)
        case .paramValue(let value) where phase == .settingParameters:
            guard let flavor, let setting = parameters.first, value.paramId == setting.name else { return [] }
            var outputs: [Output] = []
            if !FenceParameters.confirms(value, setting, flavor: flavor) {
                unconfirmed.append("\(setting.name)=\(value.numericValue(bytewise: flavor == .px4))")
                outputs.append(.log(.warning, "\(List.logName): \(setting.name) is "
                    + "\(value.numericValue(bytewise: flavor == .px4)), not \(setting.value)"))
            }
            parameters.removeFirst()
            return outputs + nextParameter(nowUs: nowUs)
        case .missionCount(let count) where isOurs(count.targetSystem, count.missionType) && phase == .readingCount:
            expectedCount = Int(count.count)
            return nextReadRequest(target: target, nowUs: nowUs)
        case .missionItemInt(let item) where isOurs(item.targetSystem, item.missionType) && phase == .readingItems:
            guard Int(item.seq) == readBack.count else {
                ignored += 1
                return []
            }
            readBack.append(item)
            return nextReadRequest(target: target, nowUs: nowUs)
        default:
            return []
        }
    }

    /// Addressed to us (or to everyone) and about this list: another ground station's transfers are not ours.
    private func isOurs(_ targetSystem: UInt8, _ missionType: UInt8) -> Bool {
        (targetSystem == systemId || targetSystem == 0) && missionType == List.missionType
    }

    private mutating func itemRequested(_ seq: UInt16, target: (system: UInt8, component: UInt8),
                                        nowUs: Int64) -> [Output] {
        guard phase == .uploading, Int(seq) < items.count else {
            ignored += 1
            return phase == .uploading
                ? [.log(.warning, "\(List.logName): item \(seq) asked for, the \(List.noun) has \(items.count)")]
                : []
        }
        var item = items[Int(seq)]
        item.seq = seq
        item.targetSystem = target.system
        item.targetComponent = target.component
        item.missionType = List.missionType
        return send(.item(item), nowUs: nowUs)
    }

    private mutating func uploadAnswered(_ result: UInt8, nowUs: Int64) -> [Output] {
        guard let plan, let flavor else { return [] }
        if let restarted = startPending(nowUs: nowUs) { return restarted }
        guard result == MissionAck.accepted else {
            let reason = "the autopilot refused the \(List.noun) (MAV_MISSION_RESULT \(result))"
            guard uploads < Self.maxUploads else { return fail(reason) }
            return [.log(.warning, "\(List.logName): \(reason); trying again")] + start(nowUs: nowUs)
        }
        phase = .settingParameters
        parameters = plan.parameters(flavor: flavor)
        return [.log(.info, "\(List.logName): upload accepted")] + nextParameter(nowUs: nowUs)
    }

    private mutating func nextParameter(nowUs: Int64) -> [Output] {
        guard let target, let flavor else { return [] }
        guard let setting = parameters.first else {
            phase = .readingCount
            var list = MissionRequestList(targetSystem: target.system, targetComponent: target.component)
            list.missionType = List.missionType
            return send(.requestList(list), nowUs: nowUs)
        }
        return send(.paramSet(FenceParameters.message(setting, flavor: flavor, target: target)), nowUs: nowUs)
    }

    private mutating func nextReadRequest(target: (system: UInt8, component: UInt8), nowUs: Int64) -> [Output] {
        guard readBack.count >= expectedCount else {
            phase = .readingItems
            var request = MissionRequestInt(seq: UInt16(readBack.count), targetSystem: target.system,
                                            targetComponent: target.component)
            request.missionType = List.missionType
            return send(.request(request), nowUs: nowUs)
        }
        var ack = MissionAck(type: MissionAck.accepted, targetSystem: target.system,
                             targetComponent: target.component)
        ack.missionType = List.missionType
        if let restarted = startPending(nowUs: nowUs) { return [.send(.ack(ack))] + restarted }
        return [.send(.ack(ack))] + compare()
    }

    private mutating func compare() -> [Output] {
        guard let plan, let flavor else { return [] }
        phase = .done
        if let difference = plan.difference(from: readBack, flavor: flavor) {
            return [.log(.error, "\(List.logName) differs from \(List.boardName): \(difference)")]
                + status(refusal: "differs: \(difference)")
        }
        inPlace = true
        let held = "\(List.logName) holds \(List.boardName) \(CRC32.text(plan.checksum)) (\(items.count) items)"
        guard unconfirmed.isEmpty else {
            let text = "\(List.noun) parameters not as set: \(unconfirmed.joined(separator: ", "))"
            return [.log(.warning, "\(held); \(text)")] + status(refusal: text, accepted: true)
        }
        return [.log(.notice, held)] + status(refusal: nil, accepted: true)
    }

    private mutating func fail(_ reason: String) -> [Output] {
        phase = .done
        return [.log(.warning, "\(List.logName) not in place: \(reason)")] + status(refusal: reason)
    }

    // MARK: - Time

    mutating func tick(nowUs: Int64) -> [Output] {
        guard let due = dueUs, nowUs >= due, let lastSent else { return [] }
        guard attempts >= Self.maxAttempts else {
            attempts += 1
            lastSentUs = nowUs
            return [.send(lastSent)]
        }
        if phase == .settingParameters, let setting = parameters.first {
            // A parameter this firmware does not have: said, and the pass goes on.
            unconfirmed.append("\(setting.name) (no answer)")
            parameters.removeFirst()
            return [.log(.warning, "\(List.logName): no answer for \(setting.name)")] + nextParameter(nowUs: nowUs)
        }
        if let restarted = startPending(nowUs: nowUs) { return restarted }
        return fail("no answer from the autopilot (\(phase)) after \(Self.maxAttempts) tries")
    }

    // MARK: - Status

    /// accepted: the list read back is the board's; the refusal says why not, or what else is wrong. Only said
    /// while the board holds a list.
    private func status(refusal: String?, accepted: Bool = false) -> [Output] {
        plan.map { [.status($0.status(accepted: accepted, refusal: refusal))] } ?? []
    }
}
