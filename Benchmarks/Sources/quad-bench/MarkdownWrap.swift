/// BENCHMARKS.md keeps the house's 120-character lines: prose and list items are wrapped at spaces (a list item's
/// continuation indented under its text); table rows and fenced code stay whole (Markdown cannot wrap them).
enum MarkdownWrap {
    static func wrapped(_ markdown: String, width: Int = 120) -> String {
        var inFence = false
        var out: [Substring] = []
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.drop { $0 == " " }
            if trimmed.hasPrefix("```") { inFence.toggle() }
            if inFence || trimmed.hasPrefix("```") || trimmed.hasPrefix("|") || trimmed.hasPrefix("#")
                || line.count <= width {
                out.append(line)
                continue
            }
            out += wrap(line, width: width)
        }
        return out.joined(separator: "\n")
    }

    /// One long line as lines of at most `width` characters where spaces allow (a longer word stays whole).
    static func wrap(_ line: Substring, width: Int) -> [Substring] {
        let indent = String(repeating: " ", count: line.prefix { $0 == " " }.count + listMarkerWidth(line))
        var lines: [Substring] = []
        var rest = line
        while rest.count > width {
            let head = rest.prefix(width + 1)
            // The last space that leaves some text on this line (not the indentation's).
            guard let space = head.dropFirst(indent.count).lastIndex(of: " ")
                    ?? rest.dropFirst(width).firstIndex(of: " ") else { break }
            lines.append(rest[..<space])
            rest = Substring(indent + rest[rest.index(after: space)...].drop { $0 == " " })
        }
        lines.append(rest)
        return lines
    }

    /// "- ", "* " or "12. " after the indentation: a continuation lines up with the item's text.
    static func listMarkerWidth(_ line: Substring) -> Int {
        let body = line.drop { $0 == " " }
        if body.hasPrefix("- ") || body.hasPrefix("* ") { return 2 }
        let digits = body.prefix { $0.isNumber }
        return !digits.isEmpty && body.dropFirst(digits.count).hasPrefix(". ") ? digits.count + 2 : 0
    }
}
