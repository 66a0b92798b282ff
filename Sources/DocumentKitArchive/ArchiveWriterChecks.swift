import DocumentKitCore

/// The bookkeeping both archive writers share: whether the writer still takes entries,
/// and the names it has taken, so no archive it writes holds a name twice (or two names
/// that collide on a case-insensitive or normalizing file system).
package final class ArchiveWriterChecks {
    package enum State {
        case open, finished, failed
    }

    /// The output's path, for error messages.
    package let path: String
    package private(set) var state = State.open
    private var collisionKeys: Set<String> = []

    package init(path: String) {
        self.path = path
    }

    /// Throws unless the writer can still take entries.
    package func checkOpen() throws {
        switch state {
        case .open: return
        case .finished: throw ArchiveError(.closed, "the archive is already finished", path: path)
        case .failed: throw ArchiveError(.closed, "an earlier error left the archive incomplete", path: path)
        }
    }

    /// Checks that the writer is open and `name` is safe and not taken, and takes it.
    package func admit(_ name: String) throws {
        try checkOpen()
        do {
            try ArchiveEntryName.validate(name)
        } catch {
            throw error.addingArchiveContext(path: path)
        }
        guard collisionKeys.insert(ArchiveEntryName.collisionKey(name)).inserted else {
            throw ArchiveError(
                .duplicateEntry,
                "another entry has the same name, or one differing only in case or Unicode normalization",
                path: path, entry: name)
        }
    }

    /// Runs `body`, leaving the writer failed if it throws: the output is then incomplete.
    package func failing(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch {
            state = .failed
            throw error
        }
    }

    package func markFailed() { state = .failed }
    package func markFinished() { state = .finished }
}
