import TextSupport

/// One common option given before and after the subcommand with different values (`--broker a takeoff --broker
/// b`): refused rather than one silently winning, since either could be the one the user meant.
public struct CommonOptionConflict: Error, Equatable, Sendable, CustomStringConvertible {
    public var option: String
    public var subcommand: String
    public var before: String
    public var after: String

    public init(option: String, subcommand: String, before: String, after: String) {
        self.option = option
        self.subcommand = subcommand
        self.before = before
        self.after = after
    }

    /// `option` and `subcommand` are the tool's own words; the values are what the user typed.
    public var description: String {
        let before = PrintableText.unicode(before, width: 80)
        let after = PrintableText.unicode(after, width: 80)
        return "\(option) given before '\(subcommand)' as '\(before)' and after it as '\(after)': give it once"
    }
}
