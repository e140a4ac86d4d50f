import QuadProtocol

/// When a pilot command has done what was asked, judged from the controller's reported state.
enum CommandGoal {
    enum Verdict: Equatable {
        case pending
        case reached
        case refused(reason: String)
    }

    /// The activities that mean "done"; empty for commands confirmed by the broker's acknowledgement alone.
    static func activities(for kind: Command.Kind) -> Set<ControllerState.Activity> {
        switch kind {
        case .takeoff: [.hovering, .flyingToTarget, .arrived]
        case .land: [.landed]
        case .hover: [.hovering]
        case .emergency: [.emergency]
        case .reset: [.landed]
        case .flatTrim: []
        case .returnHome: [.returningHome]
        }
    }

    /// `state` is one the controller published after the command was acknowledged.
    static func verdict(_ kind: Command.Kind, after state: ControllerState) -> Verdict {
        if activities(for: kind).contains(state.activity) { return .reached }
        let reason = state.reason
        if reason == "not-pilot" || reason == "command-before-start" || reason.hasPrefix("\(kind.word)-refused") {
            return .refused(reason: reason)
        }
        return .pending
    }
}
