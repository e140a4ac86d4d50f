import Clocks

/// The one decoder for payloads on `quad/<id>/target`: binary (first byte 0xFF) or JSON for people, e.g.
/// `mosquitto_pub -t quad/drone1/target -m '{"lat": 52.5163, "lon": 13.3777, "alt": 3, "ttl": 10}'`.
///
/// JSON keys: `lat`, `lon` (degrees, required), `alt` (metres above ground, optional), `ttl` (seconds,
/// optional, default 0 = no expiry), `sender` (optional, default "json"), `run` (the controller run it is meant
/// for, the `run_id` of its state; optional, default 0 = unaddressed). Unknown keys are rejected: a typo
/// such as `"altitude"` must not be silently dropped from a flight instruction. `null` counts as absent.
public enum InboundTarget {
    public static let jsonKeys = ["lat", "lon", "alt", "ttl", "sender", "run"]
    public static let defaultJSONSender = "json"

    /// JSON targets get sequence 0 (unsequenced) and `receivedAt` as their stamp: the receiving host's wall clock
    /// stands in for the sender's, which a typed JSON line does not carry. A stamp, so a `WallInstant`: ages and the
    /// ttl count from the receiver's monotonic receipt, which the caller keeps apart.
    public static func decode(payload: [UInt8], receivedAt: WallInstant) throws(WireError) -> Target {
        if payload.first == WireHeader.magic[0] { return try Target(decoding: payload) }
        let object = try JSONObjectReader(JSONValue.parse(payload), allowedKeys: jsonKeys, strict: true)
        let target = Target(
            senderId: try object.optional("sender")?.string("sender") ?? defaultJSONSender,
            sequence: 0,
            timestampUs: receivedAt.us,
            latitudeDeg: try object.required("lat").number("lat"),
            longitudeDeg: try object.required("lon").number("lon"),
            altitudeM: try object.optional("alt")?.number("alt").asFloat,
            ttlS: try object.optional("ttl")?.number("ttl").asFloat ?? 0,
            controllerRunId: try runId(object.optional("run")))
        try target.validate()
        return target
    }

    /// A run id is an exact integer: 1.5 or 1e10 would address a run that cannot exist.
    private static func runId(_ value: JSONValue?) throws(WireError) -> UInt32 {
        guard let value else { return RunAddress.none }
        let number = try value.number("run")
        guard let id = UInt32(exactly: number) else {
            throw .outOfRange(field: "run", expected: "an integer in [0, 4294967295]", got: number)
        }
        return id
    }
}

extension Double {
    /// Out-of-range values become ±infinity and are then rejected as not finite.
    var asFloat: Float { Float(self) }
}
