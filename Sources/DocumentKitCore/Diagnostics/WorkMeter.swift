import Foundation

/// Counts the work a process does, in units that do not depend on the machine: bytes of
/// JSON text walked, values encoded, records checked, bytes hashed and stored. A test
/// runs docctl on documents of 5,000 and 20,000 records and fails when any count grows
/// faster than n log n (Tests/DocumentKitTests/Scaling), which a timed test on a shared
/// machine could not tell from noise.
///
/// Off unless the program starts it (``start(writingTo:)``; docctl does when
/// `DOCUMENTKIT_WORK_METER` names a file): then the counts are written to that file, as a
/// JSON object, when the process exits. Each count is one add to a plain integer,
/// behind a flag read once, so the meter costs nothing measurable when off. The counts
/// are per process; work on a second thread (a digest checked while an edit splices)
/// adds under a lock, taken only when the meter is on.
public enum WorkMeter {
    /// What is counted.
    public enum Kind: String, CaseIterable, Sendable {
        /// Bytes of JSON text parsed, checked or scanned, once per pass over them.
        case jsonBytes = "json-bytes"
        /// Bytes of JSON text written by the encoders.
        case encodedBytes = "encoded-bytes"
        /// Keys the canonical encoder compared or looked up to place an object's members.
        case encoderSteps = "encoder-steps"
        /// Records of a document checked by a rule, ids entered into a relationship's
        /// index, and records visited by a cascade.
        case ruleSteps = "rule-steps"
        /// Values the diff compared.
        case diffSteps = "diff-steps"
        /// Bytes a delta encoder indexed and matched.
        case deltaBytes = "delta-bytes"
        /// Bytes hashed with SHA-256.
        case hashedBytes = "hashed-bytes"
        /// Bytes written to or copied into a zip.
        case storedBytes = "stored-bytes"
        /// Bytes read from a zip's entries.
        case readBytes = "read-bytes"
        /// Preferences files opened and read (a program's settings, a bundle's state is not one).
        case settingsReads = "settings-reads"
        /// Bytes of files taken from an OCFL object: a remote's, downloaded or read in place.
        case fetchedBytes = "fetched-bytes"
    }

    /// Starts counting; the counts are written to `path` when the process exits.
    public static func start(writingTo path: String) {
        lock.withLock { output = path }
        isOn = true
        atexit { WorkMeter.write() }
    }

    // Read without the lock on every count: it is set once, at the start, before any work.
    @usableFromInline nonisolated(unsafe) static var isOn = false
    nonisolated(unsafe) private static var output: String?
    nonisolated(unsafe) private static var counts = [Int](repeating: 0, count: Kind.allCases.count)
    private static let lock = NSLock()

    /// Adds `amount` of `kind`, when the meter is on. Inlined into every layer's hot loops
    /// (a count per member encoded), where it costs one test of a flag when off.
    @inlinable
    package static func count(_ kind: Kind, _ amount: Int = 1) {
        guard isOn else { return }
        record(kind, amount)
    }

    @usableFromInline
    static func record(_ kind: Kind, _ amount: Int) {
        lock.withLock { counts[kindIndex(kind)] += amount }
    }

    private static func kindIndex(_ kind: Kind) -> Int {
        switch kind {
        case .jsonBytes: 0
        case .encodedBytes: 1
        case .ruleSteps: 2
        case .diffSteps: 3
        case .deltaBytes: 4
        case .hashedBytes: 5
        case .storedBytes: 6
        case .readBytes: 7
        case .encoderSteps: 8
        case .settingsReads: 9
        case .fetchedBytes: 10
        }
    }

    private static func write() {
        guard let output else { return }
        let members = lock.withLock { Kind.allCases.map { "\"\($0.rawValue)\": \(counts[kindIndex($0)])" } }
        try? Data("{\(members.joined(separator: ", "))}\n".utf8).write(to: URL(fileURLWithPath: output))
    }
}
