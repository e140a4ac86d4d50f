import QuadService

/// The controller's state directory (`FlightMemoryLocation`), as the flight memory and the airspace file take it.
enum StateDirectory {
    /// Makes `directory` (with its parents when it is the default one, `named` false) and locks `file + ".lock"` for
    /// the process's life, so one controller at a time keeps `file`; what went wrong, in words, or nil.
    static func prepare(_ directory: String, named: Bool, keeping file: String) -> String? {
        do {
            if named { try FileBytes.prepareDirectory(directory) } else {
                try FileBytes.prepareDirectoryTree(directory)
            }
        } catch {
            return "\(error)"
        }
        // The descriptor stays open for the process's life: the lock is the process's, dropped at its death.
        guard FileBytes.tryLock(file + ".lock", creating: true) != nil else {
            return "another drone-controller keeps \(file) (its lock is held)"
        }
        return nil
    }
}
