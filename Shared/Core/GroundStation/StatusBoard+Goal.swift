import Clocks
import QuadProtocol

extension StatusBoard {
    /// What the drone's distance is measured to, from the controller's state alone: the target it holds, home
    /// while it returns and after a return, else nothing. Never the navigator's own target: after a `land`, a
    /// `hover`, a return or a restart the navigator still measures to the target the controller dropped.
    enum Goal: Equatable {
        /// No controller state, or one without a target.
        case none
        /// The controller's target. The distance (and bearing) of the navigator's solution for this very target
        /// when it is the fresher word, else the controller's own distance; `receivedAtUs` of the one shown.
        case target(latitudeDeg: Double, longitudeDeg: Double, distanceM: Double?, bearingDeg: Double?,
                    receivedAtUs: Int64, fromNavigator: Bool)
        /// Home: the controller's distance, which is to home while it returns (nil when it gives none).
        case home(distanceM: Double?, note: String, receivedAtUs: Int64)
    }

    var goal: Goal {
        guard let c = controller else { return .none }
        let state = c.value
        let controllerM = state.distanceToTargetM.map(Double.init)
        if let note = Self.homeNote(state) {
            return .home(distanceM: controllerM, note: note, receivedAtUs: c.receivedAtUs)
        }
        guard let lat = state.targetLatitudeDeg, let lon = state.targetLongitudeDeg else { return .none }
        if let n = navigation,
           ControllerReply.hasTarget(state, n.value.targetLatitudeDeg, n.value.targetLongitudeDeg),
           n.receivedAtUs >= c.receivedAtUs || controllerM == nil {
            return .target(latitudeDeg: lat, longitudeDeg: lon, distanceM: n.value.distanceM,
                           bearingDeg: n.value.bearingDeg, receivedAtUs: n.receivedAtUs, fromNavigator: true)
        }
        return .target(latitudeDeg: lat, longitudeDeg: lon, distanceM: controllerM, bearingDeg: nil,
                       receivedAtUs: c.receivedAtUs, fromNavigator: false)
    }

    /// Why the distance is to home, or nil: returning, over home after a return (hovering before it lands) and
    /// landing there. The controller dropped the target when the return began.
    static func homeNote(_ state: ControllerState) -> String? {
        switch (state.activity, state.reason) {
        case (.returningHome, _): "returning home"
        case (.hovering, .homeReached): "over home"
        case (.landing, .returnedHome): "landing at home"
        default: nil
        }
    }

    /// The `--line` distance field: `dist 31.2 m`, `home dist 44.0 m` (see `goal`), `dist -` without either.
    public var progressDistance: String {
        switch goal {
        case .none: "dist -"
        case .target(_, _, let distanceM, _, _, _): "dist " + Self.metres(distanceM)
        case .home(let distanceM, _, _): "home dist " + Self.metres(distanceM)
        }
    }

    /// `  12.4 s  flying-to-target  dist 31.2 m  alt 1.0 m  batt 97%  link ok`: one line per interval (`--line`),
    /// `elapsed` since the view started.
    public func progressLine(elapsed: Duration, now: MonotonicInstant) -> String {
        let seconds = TextFormat.fixed(Double(elapsed.us) / 1e6, digits: 1)
        let activity = controller.map { $0.value.activity.name(separator: "-") } ?? "no-controller"
        var text = TextFormat.padLeft(seconds, 6) + " s  " + TextFormat.pad(activity, 16) + "  " + progressDistance
        let drone = droneState?.value
        text += "  alt " + (drone.map { TextFormat.fixed(Double($0.altitudeM), digits: 1) + " m" } ?? "-")
        text += "  batt " + (drone.map { "\($0.batteryPercent)%" } ?? "-")
        return text + "  link " + linkWord(now: now)
    }
}
