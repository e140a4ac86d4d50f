/// Where recovered records belong when a log is read. `record` can only append, so records recovered from the board
/// after an outage sit at the end of the open file; their receive time (mapped onto this logger's clock, clamped
/// between the live records around the gap) says where they belong.
public enum RecoveredOrder {
    /// Live records keep their file order (the order they arrived in, even if the wall clock stepped); each
    /// recovered record goes before the first live record received after it, recovered records among themselves
    /// by receive time (stable). A log without recovered records comes back unchanged.
    public static func inReceiveOrder(_ records: [LogRecord]) -> [LogRecord] {
        guard records.contains(where: \.recovered) else { return records }
        let live = records.filter { !$0.recovered }
        // Stable sort: equal times keep their file order.
        let recovered = records.enumerated().filter { $0.element.recovered }
            .sorted { ($0.element.receiveTimeUs, $0.offset) < ($1.element.receiveTimeUs, $1.offset) }
            .map(\.element)
        var merged: [LogRecord] = []
        merged.reserveCapacity(records.count)
        var next = 0
        for record in live {
            while next < recovered.count, recovered[next].receiveTimeUs < record.receiveTimeUs {
                merged.append(recovered[next])
                next += 1
            }
            merged.append(record)
        }
        merged.append(contentsOf: recovered[next...])
        return merged
    }
}
