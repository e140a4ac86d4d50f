import ArgumentParser

/// The exit codes every executable uses (docs/ground-tools.md, "Exit codes"): 0 done, 1 refused or failed, 64 usage
/// (ArgumentParser's `ValidationError`: every invalid value goes through it), 65 completed with damage (sysexits'
/// EX_DATAERR).
public enum ExitStatus {
    /// The command did its job, but what it read or produced is incomplete: `recover` found damage, `sync` could
    /// not fill every gap. A script can tell this from both success and failure.
    public static let completedWithDamage = ExitCode(65)
}
