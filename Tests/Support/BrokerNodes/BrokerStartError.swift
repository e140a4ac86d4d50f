/// A broker found its port taken: tests run in parallel, and a port found free can be bound by another suite's
/// broker before ours binds it. The launchers then start again on fresh ports, up to `portAttempts` times.
public enum BrokerStartError: Error {
    case portTaken(String)

    public static let portAttempts = 5
}
