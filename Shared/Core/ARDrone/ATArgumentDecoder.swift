/// Turns the fields after the sequence number into a typed `ATCommand`, checking count and types.
struct ATArgumentDecoder {
    let name: String
    let fields: [ATField]

    func command() throws(ATParseError) -> ATCommand {
        switch name {
        case "REF":
            try expectCount(1...1)
            return .ref(try integer(0))
        case "PCMD":
            try expectCount(5...5)
            return .pcmd(flag: try integer(0), roll: try float(1), pitch: try float(2), gaz: try float(3),
                         yaw: try float(4))
        case "PCMD_MAG":
            try expectCount(7...7)
            return .pcmdMag(flag: try integer(0), roll: try float(1), pitch: try float(2), gaz: try float(3),
                            yaw: try float(4), psi: try float(5), psiAccuracy: try float(6))
        case "FTRIM":
            try expectCount(0...0)
            return .ftrim
        case "CONFIG":
            try expectCount(2...2)
            return .config(key: try string(0), value: try string(1))
        case "CONFIG_IDS":
            try expectCount(3...3)
            return .configIDs(session: try string(0), user: try string(1), application: try string(2))
        case "CTRL":
            // The SDK sends "mode,0"; cvdrone sends just "mode". The second value carries nothing.
            try expectCount(1...2)
            if fields.count == 2 {
                _ = try integer(1)
            }
            return .ctrl(mode: try integer(0))
        case "COMWDG":
            try expectCount(0...0)
            return .comwdg
        case "CALIB":
            try expectCount(1...1)
            return .calib(device: try integer(0))
        case "LED":
            try expectCount(3...3)
            return .led(animation: try integer(0), frequencyHz: try float(1), durationS: try integer(2))
        case "ANIM":
            try expectCount(2...2)
            return .anim(animation: try integer(0), durationMs: try integer(1))
        default:
            return .other(name: name, arguments: try fields.indices.map { (index) throws(ATParseError) in
                if case .quoted(let text) = fields[index] { return .string(text) }
                return .integer(try integer(index))
            })
        }
    }

    private func expectCount(_ expected: ClosedRange<Int>) throws(ATParseError) {
        guard expected.contains(fields.count) else {
            throw .wrongArgumentCount(command: name, expected: expected, got: fields.count)
        }
    }

    /// Signed decimal within Int32, or an unsigned one up to 2^32 − 1 taken as the same 32 bits (some clients
    /// print the bit pattern unsigned).
    private func integer(_ index: Int) throws(ATParseError) -> Int32 {
        let field = fields[index]
        guard case .bare(let text) = field, let value = Self.parseInteger(text) else {
            throw .nonIntegerArgument(command: name, argumentIndex: index, text: field.text)
        }
        return value
    }

    private func float(_ index: Int) throws(ATParseError) -> Float {
        ATFloat.decode(try integer(index))
    }

    private func string(_ index: Int) throws(ATParseError) -> String {
        guard case .quoted(let text) = fields[index] else {
            throw .unquotedStringArgument(command: name, argumentIndex: index, text: fields[index].text)
        }
        return text
    }

    static func parseInteger(_ text: String) -> Int32? {
        let utf8 = text.utf8
        let digits = utf8.first == ATSyntax.minus ? utf8.dropFirst() : utf8[...]
        // At most 10 digits keeps Int64 far from overflow before the range check.
        guard !digits.isEmpty, digits.count <= 10, digits.allSatisfy(ATSyntax.isDigit) else { return nil }
        var magnitude: Int64 = 0
        for digit in digits {
            magnitude = magnitude * 10 + Int64(digit - 0x30)
        }
        let value = utf8.first == ATSyntax.minus ? -magnitude : magnitude
        guard value >= Int64(Int32.min), value <= Int64(UInt32.max) else { return nil }
        return Int32(truncatingIfNeeded: value)
    }
}
