import MAVLink
@testable import MAVLinkCompanion

/// An autopilot's list store in a test: answers the mission protocol as PX4 or ArduPilot would.
protocol ListStore {
    var flavor: AutopilotFlavor { get }
    mutating func handle(_ message: AutopilotListMessage) -> [MAVLinkInbound]
}

/// Runs an `AutopilotListSync` against a store on simulated time, losing the messages it is told to lose.
struct ListExchange<List: AutopilotList, Store: ListStore> {
    var sync: AutopilotListSync<List>
    var autopilot: Store
    var nowUs: Int64 = 0
    /// Our messages (1-based, in order sent) the autopilot never gets.
    var lostOutgoing: Set<Int> = []
    /// The autopilot's answers (1-based) we never get.
    var lostAnswers: Set<Int> = []
    private(set) var sentCount = 0
    private(set) var answerCount = 0
    /// The statuses the sync published, in order.
    private(set) var published: [List.Status] = []
    private(set) var logs: [String] = []
    private(set) var sent: [AutopilotListMessage] = []

    init(sync: AutopilotListSync<List>, autopilot: Store) {
        self.sync = sync
        self.autopilot = autopilot
    }

    /// Feeds `outputs` and everything that follows until the sync has nothing left to do (or `limitUs` passes).
    mutating func run(_ outputs: [AutopilotListSync<List>.Output], limitUs: Int64 = 120_000_000) {
        var pending = outputs
        while true {
            var answers: [MAVLinkInbound] = []
            for output in pending {
                switch output {
                case .send(let message):
                    sentCount += 1
                    sent.append(message)
                    if !lostOutgoing.contains(sentCount) { answers += autopilot.handle(message) }
                case .log(_, let text): logs.append(text)
                case .status(let status): published.append(status)
                }
            }
            pending = []
            for answer in answers {
                answerCount += 1
                if !lostAnswers.contains(answerCount) { pending += sync.receive(answer, nowUs: nowUs) }
            }
            if pending.isEmpty {
                guard let due = sync.dueUs, due <= limitUs else { return }
                nowUs = max(nowUs, due)
                pending = sync.tick(nowUs: nowUs)
            }
        }
    }

    mutating func connect() {
        run(sync.connected(target: (1, 1), flavor: autopilot.flavor, nowUs: nowUs))
    }
}
