import Foundation
import Synchronization

/// Counts work in units that do not depend on the machine: bytes of JSON text walked,
/// values encoded, records checked, bytes hashed and stored. A test runs docctl on
/// documents of 5,000 and 20,000 records and fails when any count grows faster than
/// n log n (Tests/DocumentKitTests/Scaling), which a timed test on a shared machine could
/// not tell from noise.
///
/// A meter counts the work done under a configuration that holds it
/// (``DocumentKitConfiguration/workMeter``), on every thread that work uses; docctl makes
/// one when `DOCUMENTKIT_WORK_METER` names a file, and writes ``json`` there when it exits.
/// Until a program makes a meter, a count is one load of a flag.
public final class WorkMeter: Sendable {
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
        /// Bytes of objects rebuilt by running a delta program on its base.
        case rebuiltBytes = "rebuilt-bytes"
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
        /// Rows of history segments' indexes read (16 bytes each): a lookup by place or by
        /// digest reads a few rows of each segment it searches.
        case indexRows = "index-rows"
    }

    private let counts = Mutex([Int](repeating: 0, count: Kind.allCases.count))

    /// A meter with every count at zero; counting starts when a configuration holding it is
    /// applied (``DocumentKitConfiguration/workMeter``).
    public init() {
        Self.anyMade.store(true, ordering: .relaxed)
    }

    /// The counts so far, by kind.
    public var snapshot: [Kind: Int] {
        counts.withLock { counts in
            Dictionary(uniqueKeysWithValues: Kind.allCases.map { ($0, counts[Self.kindIndex($0)]) })
        }
    }

    /// The counts as one JSON object, `{"json-bytes": 120, …}`, in the order of ``Kind``.
    public var json: String {
        let counts = snapshot
        return "{" + Kind.allCases.map { "\"\($0.rawValue)\": \(counts[$0] ?? 0)" }.joined(separator: ", ") + "}\n"
    }

    /// Adds `amount` of `kind`.
    public func add(_ kind: Kind, _ amount: Int = 1) {
        counts.withLock { $0[Self.kindIndex(kind)] += amount }
    }

    // Whether any meter was ever made: until one is, a count is one relaxed load of a flag,
    // so counting costs nothing measurable in a program that never meters.
    @usableFromInline static let anyMade = Atomic<Bool>(false)

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
        case .rebuiltBytes: 11
        case .indexRows: 12
        }
    }
}
