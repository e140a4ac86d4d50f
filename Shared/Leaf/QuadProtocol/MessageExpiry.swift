/// How long a ground message may wait in a broker or bridge queue before the broker drops it: the MQTT 5
/// Message Expiry Interval set on ttl-carrying publishes. The board still counts every ttl from receipt (a 3.1.1
/// bridge does not carry the property on); expiry only stops a message that waited out its ttl in a queue — e.g.
/// on the ground broker while the radio was down — from being delivered at all.
public enum MessageExpiry {
    /// Commands and claims carry no ttl of their own; a `takeoff` that waited longer than this is not what the
    /// pilot meant any more.
    public static let defaultCommandS: UInt32 = 5

    /// A target's ttl, rounded up to whole seconds; nil (no expiry) for ttl 0, which means "never expires".
    public static func seconds(forTTL ttlS: Float) -> UInt32? {
        guard ttlS.isFinite, ttlS > 0 else { return nil }
        return UInt32(min(ttlS.rounded(.up), Float(UInt32.max / 2)))
    }
}
