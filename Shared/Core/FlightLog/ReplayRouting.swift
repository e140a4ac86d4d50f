import QuadProtocol

/// Where `telemetry-logger replay` sends each recorded message.
///
/// Republishing a log on the live topics flies a real drone: a live drone-controller executes a recorded
/// `takeoff`, `emergency` or `reset`. So by default every message goes under `Topics.replayRoot`
/// (`replay/quad/<id>/…`), which no service subscribes to; the live topics are only used with `--live`, and
/// only while that drone's controller is not online (`LiveReplayGate`).
///
/// Nothing is republished retained: a replayed retained controller state or presence would outlive the replay
/// and read as the drone's current state. In live mode presence (`status/…`) is skipped altogether, since a
/// replayed `online` would announce a service that is not running.
public struct ReplayRouting: Sendable, Equatable {
    public enum Destination: Sendable, Equatable {
        /// Under `replay/` (the default).
        case replayRoot
        /// The recorded topics themselves (`--live`).
        case live
    }

    public enum Decision: Sendable, Equatable {
        /// Publish on `topic`, never retained.
        case publish(topic: String)
        /// Not published; the reason is for the user.
        case skip(reason: String)
    }

    public let destination: Destination
    /// Replaces the recorded drone level (`--drone-override`).
    public let droneOverride: DroneID?

    public init(destination: Destination, droneOverride: DroneID? = nil) {
        self.destination = destination
        self.droneOverride = droneOverride
    }

    public func route(_ record: LogRecord) -> Decision {
        // A log file is untrusted input: a topic the broker would refuse is skipped, never a failed replay.
        guard !record.topic.isEmpty, !record.topic.contains(where: { $0 == "+" || $0 == "#" || $0 == "\0" }) else {
            return .skip(reason: "not a publishable topic")
        }
        let topic = droneOverride.flatMap { Topics.replacingDrone(in: record.topic, with: $0) } ?? record.topic
        switch destination {
        case .replayRoot:
            return .publish(topic: Topics.replayed(topic))
        case .live:
            guard DroneID(topic: topic) != nil else { return .skip(reason: "not a quad/<drone>/ topic") }
            if Topics.isStatus(topic) { return .skip(reason: "presence is never replayed on live topics") }
            return .publish(topic: topic)
        }
    }

    /// The drones whose live topics this replay writes, sorted: each one's controller must be offline.
    public func liveDrones(_ records: [LogRecord]) -> [DroneID] {
        guard destination == .live else { return [] }
        var drones = Set<DroneID>()
        for record in records {
            if case .publish(let topic) = route(record), let drone = DroneID(topic: topic) { drones.insert(drone) }
        }
        return drones.sorted { $0.rawValue < $1.rawValue }
    }
}

/// Decides whether `replay --live` may write a drone's live topics, from the retained presence of its
/// drone-controller (`quad/<id>/status/drone-controller`).
public enum LiveReplayGate {
    /// The presence service whose `online` state forbids a live replay.
    public static let controllerService = "drone-controller"

    /// Nil when the replay may go ahead: no presence retained (no controller ever ran on this broker) or an
    /// `offline` one. Otherwise the sentence saying why not. An unreadable presence refuses too: it might be
    /// a controller we cannot understand, and the cost of guessing wrong is a drone taking off.
    public static func refusal(drone: DroneID, retainedPresence: [UInt8]?) -> String? {
        guard let payload = retainedPresence, !payload.isEmpty else { return nil }
        let topic = Topics.status(service: controllerService, drone: drone)
        guard let status = try? ServiceStatus(json: payload) else {
            return "the presence on \(topic) is unreadable, so \(drone)'s drone-controller may be online; "
                + "refusing to replay on its live topics"
        }
        switch status.state {
        case .offline: return nil
        case .online:
            return "\(drone)'s drone-controller is online (\(topic)): a live replay would fly the drone; "
                + "stop the controller or replay without --live (under \(Topics.replayRoot)/)"
        }
    }
}
