import ARDrone

/// INTERIM: a minimal AT parser so the session can be built and tested before the ARDrone module's parser
/// lands; replaced by a call into ARDrone then.
public enum ATDecodeFailure: Error, Equatable, Sendable {
    case datagramTooLong(byteCount: Int, limit: Int)
    case malformedCommand(String)
}

extension SimulatorSession {
    static func decodeATDatagram(_ bytes: [UInt8]) -> [Result<(UInt32, ATCommand), ATDecodeFailure>] {
        guard bytes.count <= 1024 else { return [.failure(.datagramTooLong(byteCount: bytes.count, limit: 1024))] }
        return bytes.split(whereSeparator: { $0 == 0x0D || $0 == 0x0A }).map { line in
            let text = String(decoding: line, as: UTF8.self)
            guard let command = decodeCommand(text) else { return .failure(.malformedCommand(String(text.prefix(40)))) }
            return .success(command)
        }
    }

    static func decodeCommand(_ text: String) -> (UInt32, ATCommand)? {
        guard text.hasPrefix("AT*"), let equals = text.firstIndex(of: "=") else { return nil }
        let name = String(text[text.index(text.startIndex, offsetBy: 3)..<equals])
        var arguments: [String] = []
        var current = ""
        var quoted = false
        for character in text[text.index(after: equals)...] {
            if character == "\"" { quoted.toggle() } else if character == ",", !quoted {
                arguments.append(current)
                current = ""
            } else { current.append(character) }
        }
        arguments.append(current)
        guard let sequence = UInt32(arguments[0]) else { return nil }
        let rest = Array(arguments.dropFirst())
        let ints = rest.map { Int32($0) }
        func int(_ i: Int) -> Int32? { i < ints.count ? ints[i] : nil }
        func float(_ i: Int) -> Float? { int(i).map(ATFloat.decode) }
        switch name {
        case "REF": return int(0).map { (sequence, .ref($0)) }
        case "PCMD", "PCMD_MAG":
            guard let flag = int(0), let roll = float(1), let pitch = float(2), let gaz = float(3), let yaw = float(4)
            else { return nil }
            return (sequence, .pcmd(flag: flag, roll: roll, pitch: pitch, gaz: gaz, yaw: yaw))
        case "FTRIM": return (sequence, .ftrim)
        case "COMWDG": return (sequence, .comwdg)
        case "CTRL": return int(0).map { (sequence, .ctrl(mode: $0)) }
        case "CONFIG": return rest.count == 2 ? (sequence, .config(key: rest[0], value: rest[1])) : nil
        default: return (sequence, .other(name: name, arguments: []))
        }
    }
}
