#if canImport(Glibc)
import Glibc
#endif

/// The one place options read environment variables (flag > environment > default).
public enum ProcessEnvironment {
    /// The variable's value; nil when it is unset or empty (an empty `QUAD_BROKER=` in a unit file means unset).
    public static func value(_ name: String) -> String? {
        guard let value = getenv(name) else { return nil }
        let text = String(cString: value)
        return text.isEmpty ? nil : text
    }
}
