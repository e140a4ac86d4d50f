/// `HOST[:PORT]` as typed for a TCP service (the MQTT broker, gpsd). IPv6 literals go in brackets: `[::1]:1883`.
public enum HostPort {
    public enum ParseError: Error, Equatable {
        case empty
        case badPort(String)
    }

    /// The host and the port if one was given (1…65535); surrounding white space is ignored.
    public static func split(_ text: String) throws(ParseError) -> (host: String, port: Int32?) {
        var trimmed = Substring(text)
        while let f = trimmed.first, f.isWhitespace { trimmed = trimmed.dropFirst() }
        while let l = trimmed.last, l.isWhitespace { trimmed = trimmed.dropLast() }
        guard !trimmed.isEmpty else { throw .empty }
        var host = String(trimmed)
        var portText: Substring?
        if trimmed.hasPrefix("["), let close = trimmed.firstIndex(of: "]") {
            host = String(trimmed[trimmed.index(after: trimmed.startIndex)..<close])
            let rest = trimmed[trimmed.index(after: close)...]
            if rest.hasPrefix(":") { portText = rest.dropFirst() }
        } else if let colon = trimmed.lastIndex(of: ":"), trimmed.firstIndex(of: ":") == colon {
            host = String(trimmed[..<colon])
            portText = trimmed[trimmed.index(after: colon)...]
        }
        guard !host.isEmpty else { throw .empty }
        guard let portText else { return (host, nil) }
        guard let p = Int32(portText), (1...65535).contains(p) else { throw .badPort(String(portText)) }
        return (host, p)
    }
}
