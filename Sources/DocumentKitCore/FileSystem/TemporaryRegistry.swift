import Foundation

/// Every temporary file and folder this process made and may still hold (a save's
/// ``TemporarySibling``, a ``StagingFolder`` with what it extracts or downloads, a
/// ``ScratchFile``, a folder remote's lock), so that a process told to stop removes them
/// before it exits (``Interruption``) instead of leaving them for a later write to find.
///
/// A temporary is registered as it is created, under the registry's lock. ``removeAll()``
/// closes the registry: a temporary asked for after the clean-up has looked is never made
/// (the thread asking waits for the process's exit). Names are fresh and random, created
/// exclusively: once a temporary is renamed into place or removed its name names nothing,
/// so the registry forgets it lazily, and removing a name that is still there removes only
/// what we made.
package enum TemporaryRegistry {
    private struct State {
        var paths: Set<String> = []
        var closed = false
    }

    private static let state = Protected(State())
    /// How many registered names there may be before those gone are forgotten.
    private static let sweepThreshold = 64

    /// Runs `make`, which creates the temporary at `path` and returns it, or `nil` when it
    /// did not; a created one is registered.
    package static func creating<T>(_ path: String, _ make: () throws -> T?) rethrows -> T? {
        try state.mutate { state in
            // The process is on its way out, its temporaries removed: make nothing more.
            while state.closed { pause() }
            guard let made = try make() else { return nil }
            if state.paths.count >= sweepThreshold {
                state.paths = state.paths.filter { SystemCall.linkStatus($0) != nil }
            }
            state.paths.insert(path)
            return made
        }
    }

    /// Removes the temporary at `path` and forgets it, under the lock: for one whose name is
    /// not random (a folder remote's `KEY.lock`), which another process may create next.
    package static func removing(_ path: String) {
        state.mutate { state in
            _ = SystemCall.removeFile(path)
            state.paths.remove(path)
        }
    }

    /// The temporaries registered that are still there (for tests and diagnostics).
    package static var existing: [String] {
        state.value.paths.filter { SystemCall.linkStatus($0) != nil }.sorted()
    }

    /// Removes every registered temporary that is still there, files and whole folders,
    /// and closes the registry, so that nothing new is registered (or created through it)
    /// before the process exits. Call it only on the way out.
    package static func removeAll() {
        let paths = state.mutate { state in
            state.closed = true
            return state.paths
        }
        for path in paths {
            guard let info = SystemCall.linkStatus(path) else { continue }
            if (info.st_mode & S_IFMT) == S_IFDIR {
                // A writer may still be adding a file to the folder: try again.
                for _ in 0..<4 where SystemCall.linkStatus(path) != nil {
                    try? FileManager.default.removeItem(atPath: path)
                }
            } else {
                unlink(path)
            }
        }
    }
}
