import QuadProtocol

/// Why one gpsd line could not be turned into a report.
public enum GPSDParseError: Error, Equatable, Sendable {
    /// Always a `WireError.invalidJSON`: the line is not JSON at all.
    case invalidJSON(WireError)
    case notAnObject(found: String)
    case missingClass
    case classNotAString(found: String)
}

/// Turns one line (without its newline) into a typed gpsd report. Lenient about fields, strict about shape:
/// a report must be a JSON object with a string `class`; a mistyped or non-finite field reads as absent.
public enum GPSDReportParser {
    public static func parse(line: some Sequence<UInt8>) throws(GPSDParseError) -> GPSDReport {
        let value: JSONValue
        do {
            // gpsd's strings are informational: a lone surrogate or bad UTF-8 in one is not worth the report.
            value = try JSONValue.parse(line, maxDepth: 32, invalidText: .replace)
        } catch {
            throw .invalidJSON(error)
        }
        guard case .object = value else { throw .notAnObject(found: value.typeName) }
        guard let classValue = value["class"] else { throw .missingClass }
        guard let className = classValue.stringValue else { throw .classNotAString(found: classValue.typeName) }
        switch className {
        case "TPV": return .tpv(tpv(value))
        case "SKY": return .sky(sky(value))
        case "VERSION":
            return .version(GPSDVersion(
                release: value["release"]?.stringValue ?? "", protocolMajor: value["proto_major"]?.intValue ?? 0,
                protocolMinor: value["proto_minor"]?.intValue ?? 0))
        case "DEVICES":
            let devices = (value["devices"]?.arrayValue ?? []).compactMap { d -> GPSDDevice? in
                guard let path = d["path"]?.stringValue else { return nil }
                return GPSDDevice(path: path, driver: d["driver"]?.stringValue)
            }
            return .devices(devices)
        case "WATCH":
            return .watch(GPSDWatch(enable: value["enable"]?.boolValue ?? false,
                                    json: value["json"]?.boolValue ?? false))
        case "ERROR": return .error(message: value["message"]?.stringValue ?? "")
        default: return .other(className: className)
        }
    }

    static func tpv(_ v: JSONValue) -> GPSDTPV {
        GPSDTPV(
            device: v["device"]?.stringValue, mode: v["mode"]?.intValue ?? 0, time: v["time"]?.stringValue,
            latitudeDeg: v["lat"]?.finiteDouble, longitudeDeg: v["lon"]?.finiteDouble,
            altitudeMSLM: v["altMSL"]?.finiteDouble ?? v["alt"]?.finiteDouble,
            trackDeg: v["track"]?.finiteDouble, speedMps: v["speed"]?.finiteDouble,
            ephM: v["eph"]?.finiteDouble, epxM: v["epx"]?.finiteDouble, epyM: v["epy"]?.finiteDouble)
    }

    static func sky(_ v: JSONValue) -> GPSDSky {
        let satellites = v["satellites"]?.arrayValue
        let usedCount = satellites.map { $0.filter { $0["used"]?.boolValue == true }.count }
        return GPSDSky(
            satellitesUsed: v["uSat"]?.intValue ?? usedCount,
            satellitesVisible: v["nSat"]?.intValue ?? satellites?.count,
            hdop: v["hdop"]?.finiteDouble)
    }
}
