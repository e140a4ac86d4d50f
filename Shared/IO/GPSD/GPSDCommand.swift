/// Commands the client writes to gpsd (TCP port 2947). gpsd answers VERSION on connect, then DEVICES and WATCH
/// after a watch request, then streams TPV/SKY reports.
public enum GPSDCommand {
    /// Start streaming JSON reports.
    public static let watch: [UInt8] = Array(#"?WATCH={"enable":true,"json":true};"#.utf8)
    /// Stop streaming (polite shutdown; closing the socket has the same effect).
    public static let unwatch: [UInt8] = Array(#"?WATCH={"enable":false};"#.utf8)
}
