import Checksums
import Logging
import MAVLink
import QuadProtocol

/// The held airspace kept on the autopilot as its own fence (issue 38 item 4), so the vehicle keeps out of the
/// keep-out zones even if the board dies. Pure: events in (with the time), messages and a status out.
///
/// One pass: upload (MAVLink mission protocol, mission type 1: MISSION_COUNT, the autopilot asks for each item by
/// MISSION_REQUEST_INT or MISSION_REQUEST in any order and as often as it likes, MISSION_ACK ends it), then the
/// fence parameters (`FenceParameters`; only for a fence with zones: with none held the autopilot's settings stay),
/// then the fence read back (MISSION_REQUEST_LIST, MISSION_COUNT, each item, our MISSION_ACK) and compared with
/// the plan. A step without an answer is sent again every `retryUs`, at most `maxAttempts` times; a refused
/// upload is tried again `maxUploads` times in all. A new held airspace or a new autopilot connection starts over.
public struct FenceSync: Sendable {
    public enum Message: Sendable, Equatable {
        case count(MissionCount)
        case item(MissionItemInt)
        case requestList(MissionRequestList)
        case request(MissionRequestInt)
        case ack(MissionAck)
        case paramSet(ParamSet)
    }

    public enum Output: Sendable, Equatable {
        case send(Message)
        case log(Logger.Level, String)
        /// What the autopilot holds (sequence and timestamp 0: the executable stamps them).
        case status(AirspaceStatus)
    }

    enum Phase: Sendable, Equatable {
        case idle, uploading, settingParameters, readingCount, readingItems, done
    }

    static let retryUs: Int64 = 1_000_000
    static let maxAttempts = 5
    static let maxUploads = 3

    let systemId: UInt8
    private(set) var plan: FencePlan?
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
    private var readBack: [FenceItem] = []
    /// Requests for an item the fence does not have, and items read back out of turn: counted, never acted on.
    private(set) var ignored = 0
    /// The last pass read the held airspace back from the autopilot.
    private(set) var inPlace = false

    public init(systemId: UInt8) { self.systemId = systemId }

    /// When `tick` must run next (a retry), or nil.
    var dueUs: Int64? { [.idle, .done].contains(phase) ? nil : lastSentUs &+ Self.retryUs }

    /// The airspace drone-controller holds (`airspace/held`); the same checksum again changes nothing.
    mutating func hold(_ definition: AirspaceDefinition, nowUs: Int64) -> [Output] {
        let next = FencePlan(definition)
        guard next.checksum != plan?.checksum else { return [] }
        plan = next
        uploads = 0
        var outputs = next.notes.map { Output.log(.notice, "autopilot fence: \($0)") }
        if target != nil { outputs += start(nowUs: nowUs) }
        return outputs
    }

    /// The autopilot answered (again): its fence may be another one now (a restart), so the pass starts over.
    mutating func connected(target: (system: UInt8, component: UInt8), flavor: AutopilotFlavor,
                            nowUs: Int64) -> [Output] {
        self.target = target
        self.flavor = flavor
        uploads = 0
        return plan == nil ? [] : start(nowUs: nowUs)
    }

    /// The autopilot went silent: nothing is sent until it answers again.
    mutating func lost() {
        target = nil
        phase = .idle
    }

    private mutating func start(nowUs: Int64) -> [Output] {
        guard let plan, let target else { return [] }
        uploads += 1
        phase = .uploading
        inPlace = false
        readBack = []
        unconfirmed = []
        var count = MissionCount(count: UInt16(clamping: plan.items.count), targetSystem: target.system,
                                 targetComponent: target.component)
        count.missionType = MAVMissionType.fence
        let text = "autopilot fence: uploading \(plan.items.count) items (airspace \(CRC32.text(plan.checksum)))"
        return [.log(.info, text), .status(status(refusal: nil))] + send(.count(count), nowUs: nowUs)
    }

    private mutating func send(_ message: Message, nowUs: Int64) -> [Output] {
        lastSent = message
        lastSentUs = nowUs
        attempts = 1
        return [.send(message)]
    }

    // MARK: - Incoming

    mutating func receive(_ message: MAVLinkInbound, nowUs: Int64) -> [Output] {
        guard let plan, let target else { return [] }
        switch message {
        case .missionRequestInt(let request) where isOurs(request.targetSystem, request.missionType):
            return itemRequested(request.seq, plan: plan, target: target, nowUs: nowUs)
        case .missionRequest(let request) where isOurs(request.targetSystem, request.missionType):
            return itemRequested(request.seq, plan: plan, target: target, nowUs: nowUs)
        case .missionAck(let ack) where isOurs(ack.targetSystem, ack.missionType) && phase == .uploading:
            return uploadAnswered(ack.type, nowUs: nowUs)
        case .paramValue(let value) where phase == .settingParameters:
            guard let flavor, let setting = parameters.first, value.paramId == setting.name else { return [] }
            var outputs: [Output] = []
            if !FenceParameters.confirms(value, setting, flavor: flavor) {
                unconfirmed.append("\(setting.name)=\(value.numericValue(bytewise: flavor == .px4))")
                outputs.append(.log(.warning, "autopilot fence: \(setting.name) is "
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
            readBack.append(FenceItem(item))
            return nextReadRequest(target: target, nowUs: nowUs)
        default:
            return []
        }
    }

    /// Addressed to us (or to everyone) and about the fence: another ground station's transfers are not ours.
    private func isOurs(_ targetSystem: UInt8, _ missionType: UInt8) -> Bool {
        (targetSystem == systemId || targetSystem == 0) && missionType == MAVMissionType.fence
    }

    private mutating func itemRequested(_ seq: UInt16, plan: FencePlan, target: (system: UInt8, component: UInt8),
                                        nowUs: Int64) -> [Output] {
        guard phase == .uploading, Int(seq) < plan.items.count else {
            ignored += 1
            return phase == .uploading
                ? [.log(.warning, "autopilot fence: item \(seq) asked for, the fence has \(plan.items.count)")] : []
        }
        return send(.item(plan.items[Int(seq)].missionItem(seq: seq, target: target)), nowUs: nowUs)
    }

    private mutating func uploadAnswered(_ result: UInt8, nowUs: Int64) -> [Output] {
        guard let plan, let flavor else { return [] }
        guard result == MissionAck.accepted else {
            let reason = "the autopilot refused the fence (MAV_MISSION_RESULT \(result))"
            guard uploads < Self.maxUploads else { return fail(reason) }
            return [.log(.warning, "autopilot fence: \(reason); trying again")] + start(nowUs: nowUs)
        }
        phase = .settingParameters
        parameters = plan.ceilingM.map { FenceParameters.settings(for: flavor, ceilingM: $0) } ?? []
        return [.log(.info, "autopilot fence: upload accepted")] + nextParameter(nowUs: nowUs)
    }

    private mutating func nextParameter(nowUs: Int64) -> [Output] {
        guard let target, let flavor else { return [] }
        guard let setting = parameters.first else {
            phase = .readingCount
            var list = MissionRequestList(targetSystem: target.system, targetComponent: target.component)
            list.missionType = MAVMissionType.fence
            return send(.requestList(list), nowUs: nowUs)
        }
        return send(.paramSet(FenceParameters.message(setting, flavor: flavor, target: target)), nowUs: nowUs)
    }

    private mutating func nextReadRequest(target: (system: UInt8, component: UInt8), nowUs: Int64) -> [Output] {
        guard readBack.count >= expectedCount else {
            phase = .readingItems
            var request = MissionRequestInt(seq: UInt16(readBack.count), targetSystem: target.system,
                                            targetComponent: target.component)
            request.missionType = MAVMissionType.fence
            return send(.request(request), nowUs: nowUs)
        }
        var ack = MissionAck(type: MissionAck.accepted, targetSystem: target.system,
                             targetComponent: target.component)
        ack.missionType = MAVMissionType.fence
        return [.send(.ack(ack))] + compare()
    }

    private mutating func compare() -> [Output] {
        guard let plan else { return [] }
        phase = .done
        if let difference = plan.difference(from: readBack) {
            return [.log(.error, "autopilot fence differs from the board's airspace: \(difference)"),
                    .status(status(refusal: "differs: \(difference)"))]
        }
        inPlace = true
        let held = "autopilot fence holds the board's airspace \(CRC32.text(plan.checksum)) (\(plan.items.count) items)"
        guard unconfirmed.isEmpty else {
            let text = "fence parameters not as set: \(unconfirmed.joined(separator: ", "))"
            return [.log(.warning, "\(held); \(text)"), .status(status(refusal: text, accepted: true))]
        }
        return [.log(.notice, held), .status(status(refusal: nil, accepted: true))]
    }

    private mutating func fail(_ reason: String) -> [Output] {
        phase = .done
        return [.log(.warning, "autopilot fence not in place: \(reason)"), .status(status(refusal: reason))]
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
            return [.log(.warning, "autopilot fence: no answer for \(setting.name)")] + nextParameter(nowUs: nowUs)
        }
        return fail("no answer from the autopilot (\(phase)) after \(Self.maxAttempts) tries")
    }

    // MARK: - Status

    /// accepted: the fence read back is the held airspace; the refusal says why not, or what else is wrong.
    private func status(refusal: String?, accepted: Bool = false) -> AirspaceStatus {
        guard let plan else { return AirspaceStatus(sequence: 0, timestampUs: 0) }
        var reason = refusal ?? ""
        while reason.utf8.count > AirspaceStatus.reasonBytes.upperBound { reason.removeLast() }
        return AirspaceStatus(
            sequence: 0, timestampUs: 0,
            accepted: accepted ? .init(checksum: plan.checksum, zoneCount: plan.zoneCount) : nil,
            uploadRefusal: refusal.map { _ in .init(checksum: plan.checksum, reason: reason) })
    }
}
