/// Presence of one service on `quad/<id>/status/<service>` (retained; the broker publishes the `offline`
/// form as the last will). The only JSON payload on the bus, e.g.
/// `{"state":"online","service":"navigator","version":"1.0.0","started_at":1700000000.25,"pid":4242}`.
/// Unknown keys are ignored when decoding, so newer services may add keys without breaking older readers.
public struct ServiceStatus: Codable, Equatable, Sendable {
    public enum State: String, Codable, Sendable, CaseIterable {
        case online
        case offline
    }

    /// Every service re-publishes its retained `online` this often while connected: a broker that does not hand
    /// retained messages to a wildcard subscription (RabbitMQ 3.10), or keeps them on another cluster node, still
    /// shows a reader every service within one interval. Readers say "unknown" only after waiting that long.
    public static let reannounceIntervalS = 5.0

    public var state: State
    /// Service name, e.g. `navigator`; 1–64 bytes.
    public var service: String
    /// Version text, e.g. `1.0.0`; 0–64 bytes.
    public var version: String
    /// When the process started, Unix seconds.
    public var startedAt: Double
    public var pid: Int32

    enum CodingKeys: String, CodingKey {
        case state, service, version
        case startedAt = "started_at"
        case pid
    }

    public init(state: State, service: String, version: String, startedAt: Double, pid: Int32) {
        self.state = state
        self.service = service
        self.version = version
        self.startedAt = startedAt
        self.pid = pid
    }

    public func validate() throws(WireError) {
        try WireCheck.string(service, "service", bytes: 1...64)
        try WireCheck.string(version, "version", bytes: 0...64)
        try WireCheck.nonNegative(startedAt, "startedAt")
        guard pid >= 0 else { throw .outOfRange(field: "pid", expected: "[0, 2147483647]", got: Double(pid)) }
    }

    /// Keys in a fixed order. The encoder does not validate: a status is informational and must always go out.
    public func encodedJSON() -> [UInt8] {
        var object = JSONObjectWriter()
        object.add(CodingKeys.state.rawValue, state.rawValue)
        object.add(CodingKeys.service.rawValue, service)
        object.add(CodingKeys.version.rawValue, version)
        object.add(CodingKeys.startedAt.rawValue, startedAt)
        object.add(CodingKeys.pid.rawValue, pid)
        return Array(object.finished().utf8)
    }

    public init(json payload: [UInt8]) throws(WireError) {
        let object = try JSONObjectReader(JSONValue.parse(payload), allowedKeys: [], strict: false)
        let stateText = try object.required("state").string("state")
        guard let state = State(rawValue: stateText) else {
            throw .wrongJSONType(key: "state", expected: "\"online\" or \"offline\"",
                got: "\"\(stateText.prefix(64))\"")
        }
        let pid = try object.required("pid").number("pid")
        guard let pid32 = Int32(exactly: pid) else {
            throw .outOfRange(field: "pid", expected: "[0, 2147483647]", got: pid)
        }
        self.init(state: state, service: try object.required("service").string("service"),
                  version: try object.required("version").string("version"),
                  startedAt: try object.required("started_at").number("started_at"), pid: pid32)
        try validate()
    }
}
