/// Lexical rules shared by the AT encoder and parser.
enum ATSyntax {
    /// The firmware drops whole datagrams longer than this.
    static let maxDatagramBytes = 1024

    static let carriageReturn: UInt8 = 0x0D
    static let lineFeed: UInt8 = 0x0A
    static let quote: UInt8 = 0x22
    static let comma: UInt8 = 0x2C
    static let equals: UInt8 = 0x3D
    static let minus: UInt8 = 0x2D

    static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    static func isPrintable(_ byte: UInt8) -> Bool { byte >= 0x20 && byte <= 0x7E }

    /// Bytes allowed inside a quoted string.
    static func isStringByte(_ byte: UInt8) -> Bool { isPrintable(byte) && byte != quote }

    static func isNameByte(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || isDigit(byte) || byte == 0x5F
    }

    static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy(isNameByte)
    }
}
