import ArgumentParser

extension SingleValueParsingStrategy {
    /// For every option that takes a number or coordinates: `--mount-offset -90` and `--home -16.5,179.9` must
    /// take the next word as the value. The default strategy sees a leading '-' as an option and says
    /// "Missing value". Text options (files, ids, hosts) keep the default so a forgotten value is still caught.
    public static var signedNumber: SingleValueParsingStrategy { .unconditional }
}
