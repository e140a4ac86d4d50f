import ArgumentParser

/// The exit codes every executable uses (docs/ground-tools.md, "Exit codes"): 0 done, 1 refused or failed, 64 usage
/// (ArgumentParser's `ValidationError`: every invalid value goes through it), 65 completed with damage (sysexits'
/// EX_DATAERR); a service that cannot start with what it was given: 66 no such input (a missing device), 69
/// unavailable (held by another process), 77 permission denied, 78 configuration (a device that is not what it
/// must be).
public enum ExitStatus {
    /// The command did its job, but what it read or produced is incomplete: `recover` found damage, `sync` could
    /// not fill every gap. A script can tell this from both success and failure.
    public static let completedWithDamage = ExitCode(65)

    /// sysexits' EX_NOINPUT: what the service must read does not exist (mavlink-link: no such serial device).
    public static let noInput = ExitCode(66)
    /// sysexits' EX_UNAVAILABLE: it exists but another process holds it (mavlink-link: the port is in use).
    public static let unavailable = ExitCode(69)
    /// sysexits' EX_NOPERM: it exists but this user may not open it.
    public static let noPermission = ExitCode(77)
    /// sysexits' EX_CONFIG: the configuration names something of the wrong kind (a serial device that is no tty).
    public static let configuration = ExitCode(78)
}

extension ExitStatus {
    /// sysexits' EX_DATAERR, the same 65 as `completedWithDamage`: what the command was given to read is invalid,
    /// and nothing was done with it (`airspace upload` of a zone file that is broken, open or self-intersecting).
    public static let dataError = ExitCode(65)
}
