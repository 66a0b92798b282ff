import Foundation
import Testing

@testable import DocumentKit
@testable import SampleProject

/// Kills docctl (SIGKILL) at random moments while it saves, and checks after every kill
/// that nothing was lost and nothing was damaged.
///
/// Each trial picks an operation on one of five files: small and large bundles (the large
/// one has a 16 MB blob and a history of dozens of versions), a legacy 1.0.0 bundle to
/// migrate, a bundle to export, and an export to import. The operations: `set`, `unset`,
/// `attach`, `prune`, `migrate`, `restore`, `edit` (with a script as the editor), `pull`
/// (of a copy with one more version, half the time a merge), `export`, `pack`, `import`
/// and `archive` (into an OCFL root). It starts docctl, kills it after a random delay (now
/// and then at once, now and then never), and then checks:
///
/// - the bundle passes `docctl validate --deep`;
/// - its versions and head document are exactly those before the trial, or exactly what
///   the operation makes of them (each operation says which: the edit applied, versions
///   dropped by a prune, the migrated bundle, the restored document; for a pull, what the
///   same pull makes of copies);
/// - an archive's root passes ocfl-validate.py and holds the versions it held or those
///   a complete archive leaves (as a clone of it lists them);
/// - an export's input is byte-identical, and its output is absent or complete (identical
///   to a reference export), never a damaged file under the final name;
/// - only temporary files of our own naming are left (`.NAME.dk-append`,
///   `.NAME.dk-XXXXXXXX.tmp`), only by killed runs, and none survives the next run on the
///   same file that succeeds;
/// - superseded bytes a streaming reader would read (`bundle.stale-readable`: a sweep after
///   a save in place cut short, FORMAT.md §8 step A5) are left only by killed runs, and
///   after the final saves none is, and a reader walking each bundle through a pipe gets
///   its head.
///
/// A kill counts as *mid-save* when it left such a temporary file: the run had begun
/// writing. Some kills are aimed just after a save in place's journal goes, at the sweep. Settings: `DOCUMENTKIT_CRASH_TRIALS` (trials), `DOCUMENTKIT_CRASH_SEED` (seed;
/// random by default, printed so that a failure can be replayed).
final class CrashHarness {
    enum Operation: String, CaseIterable {
        case setSmall = "set small"
        case setLarge = "set large"
        case unsetLarge = "unset large"
        case attachLarge = "attach large"
        case pruneSmall = "prune small"
        case pruneLarge = "prune large"
        case migrateLegacy = "migrate legacy"
        case restoreSmall = "restore small"
        case restoreLarge = "restore large"
        case exportZip = "export zip"
        case exportTarZstd = "export tar.zst"
        case exportDir = "export dir"
        case packLarge = "pack large"
        case editSmall = "edit small"
        case pullSmall = "pull small"
        case importZip = "import zip"
        case archiveLarge = "archive large"

        /// How often it is picked, relative to the others: the long writes, where kills land
        /// mid-save most often, more than the short ones.
        var weight: Int {
            switch self {
            case .setLarge, .attachLarge, .pruneLarge: 12
            case .setSmall, .migrateLegacy, .exportDir: 9
            case .exportZip, .exportTarZstd, .pruneSmall, .packLarge, .pullSmall, .importZip: 7
            case .unsetLarge, .restoreSmall, .restoreLarge, .editSmall, .archiveLarge: 5
            }
        }
    }

    /// What a run found.
    struct Report: CustomStringConvertible {
        var seed: UInt64
        /// The layout of the small and large bundles.
        var formatVersion: Int
        var trials = 0
        /// Runs killed while still running.
        var killed = 0
        /// Killed runs that had begun writing: they left a temporary file or journal.
        var killedMidSave = 0
        /// Killed runs whose change had already been committed (the new state was found).
        var killedAfterCommit = 0
        /// Killed runs that left a sweep unfinished: bytes a streaming reader would read
        /// (`bundle.stale-readable`), which the next save on the bundle finishes.
        var sweepsCutShort = 0
        var failures: [String] = []
        var byOperation: [Operation: (trials: Int, midSave: Int)] = [:]

        var description: String {
            let operations = Operation.allCases.compactMap { operation in
                byOperation[operation].map { "\(operation.rawValue) \($0.trials)/\($0.midSave)" }
            }.joined(separator: ", ")
            return """
                crash harness (format \(formatVersion), seed \(seed)): \(trials) trials, \(killed) killed while running, \(killedMidSave) of them mid-save \
                (a temporary file or journal left), \(killedAfterCommit) after the commit (\(sweepsCutShort) of them in the sweep), \
                \(trials - killed) not killed; \
                \(failures.count) failures
                crash harness by operation (trials/mid-save): \(operations)
                """ + failures.map { "\ncrash harness failure: \($0)" }.joined()
        }
    }

    /// A bundle's history and head, as readers see it.
    struct BundleState: Equatable {
        var versions: [VersionID]
        var document: Data

        init(_ url: URL) throws {
            let bundle = try DocumentBundle(contentsOf: url)
            versions = try bundle.manifest.versions.map(\.id)
            document = try bundle.headDocumentData()
        }

        var json: JSONValue { get throws { try JSONValue.parse(document) } }
    }

    /// What a trial may leave: the old state, or the one the operation makes.
    enum Expectation {
        case bundle(String, old: BundleState, isNew: (BundleState) throws -> Bool)
        case export(String, reference: URL, replacing: Bool)
        /// A new bundle made from an input (`pack` from a bundle, `import` from an export):
        /// the input as it was, and the new bundle absent (or `previous`, the one it
        /// replaces) or whole.
        case newBundle(String, expected: BundleState, previous: BundleState?, inputIntact: () throws -> Bool)
        /// An OCFL storage root written from a bundle (`archive`): the bundle as it was, and
        /// the root valid, holding the versions it held (`old`, `nil` for no root yet) or
        /// those a complete run leaves.
        case archive(String, source: String, sourceState: BundleState, old: [VersionID]?, new: [VersionID])
    }

    struct Plan {
        var operation: Operation
        var arguments: [String]
        var expectation: Expectation
        /// Variables docctl runs with besides ``Run/environment`` (the editor of `edit`).
        var environment: [String: String] = [:]
        /// The file whose temporaries this run may leave: the bundle, or the export's output.
        var target: String {
            switch expectation {
            case .bundle(let name, _, _), .export(let name, _, _), .newBundle(let name, _, _, _),
                .archive(let name, _, _, _, _):
                name
            }
        }
    }

    let directory: TemporaryDirectory
    let references: TemporaryDirectory
    var random: SeededRandom
    private var report: Report
    /// How long each operation takes when not killed, in seconds, for choosing kill delays.
    private var nominal: [Operation: Double] = [:]
    /// How long its temporary files live (the write), in seconds, as last seen.
    private var writing: [Operation: Double] = [:]
    var attachmentDigests: [String: String] = [:]
    var migrated: BundleState!
    private var sourceDigest = ""
    let bundles = ["small.dkproj", "large.dkproj", "legacy.dkproj"]
    let outputs: [Operation: String] = [
        .exportZip: "out.zip", .exportTarZstd: "out.tar.zst", .exportDir: "outdir", .packLarge: "packed.dkproj",
        .importZip: "imported.dkproj", .archiveLarge: "root"
    ]
    /// What a complete import of `import.zip` (an export of the large bundle) makes.
    var imported: BundleState!
    var importDigest = ""
    /// How the setup saves: in the layout the harness tests the small and large bundles in
    /// (docctl keeps a bundle in the layout it has).
    let metadata: SaveMetadata

    /// The number of trials the environment asks for, else `default`.
    static func trials(default value: Int) -> Int {
        ProcessInfo.processInfo.environment["DOCUMENTKIT_CRASH_TRIALS"].flatMap(Int.init) ?? value
    }

    /// The seed the environment asks for, else a random one.
    static var seed: UInt64 {
        ProcessInfo.processInfo.environment["DOCUMENTKIT_CRASH_SEED"].flatMap { UInt64($0) }
            ?? UInt64.random(in: 1...UInt64(UInt32.max))
    }

    /// A harness whose small and large bundles start in `formatVersion` (docctl's saves
    /// write format 3, so format-2 bundles are upgraded by the first trial that saves each).
    init(seed: UInt64, formatVersion: Int = BundleManifest.currentFormatVersion) throws {
        var metadata = SaveMetadata(
            author: "harness", message: "setup", created: Date(timeIntervalSince1970: 1_767_225_600))
        metadata.formatVersion = formatVersion
        self.metadata = metadata
        directory = try TemporaryDirectory("crash-harness")
        references = try TemporaryDirectory("crash-harness-references")
        random = SeededRandom(seed: seed)
        report = Report(seed: seed, formatVersion: formatVersion)
        try makeFiles()
        try calibrate()
    }

    // MARK: - Setup

    func url(_ name: String) -> URL { directory.url.appendingPathComponent(name) }

    /// The bundles, attachments and reference exports, made with the library (faster than
    /// one docctl process per version).
    private func makeFiles() throws {
        for (name, size, seed) in [("big.bin", 16_000_000, 1), ("a.bin", 8_000_000, 2), ("b.bin", 8_000_000, 3)]
            as [(String, Int, UInt64)]
        {
            let data = Fixtures.noise(size, seed: seed)
            try Fixtures.write(data, to: name, in: directory.url)
            attachmentDigests[name] = ObjectDigest.of(data).hex
        }
        _ = try BundleEdits.create(
            at: url("small.dkproj"), type: Project.self, json: GeneratedProject.document(taskCount: 4, seed: 1),
            metadata: metadata)
        let large = url("large.dkproj")
        _ = try BundleEdits.create(
            at: large, type: Project.self, json: GeneratedProject.document(taskCount: 200, seed: 2), metadata: metadata)
        _ = try BundleEdits.attach(url("big.bin"), at: JSONPath(parsing: "thumbnail"), in: large, metadata: metadata)
        for index in 1...30 {
            _ = try BundleEdits.set(
                .string("setup \(index)"), at: JSONPath(parsing: "tasks[\(index)].title"), in: large, metadata: metadata
            )
        }
        try FileManager.default.copyItem(at: large, to: url("source.dkproj"))
        sourceDigest = try Fixtures.digest(of: url("source.dkproj"))
        try FileManager.default.copyItem(at: Fixtures.sampleDoc("legacy-v1.dkproj"), to: url("legacy.dkproj"))

        // What a completed migration and each export make, for comparison.
        let legacy = references.url.appendingPathComponent("legacy.dkproj")
        try FileManager.default.copyItem(at: Fixtures.sampleDoc("legacy-v1.dkproj"), to: legacy)
        try expectSuccess(Run.docctl(["migrate", legacy.path], in: references.url), "reference migration")
        migrated = try BundleState(legacy)
        // The editor of `edit`: it renames the project to $EDIT_NAME.
        try Fixtures.write(
            Data(
                #"""
                #!/bin/sh
                sed -i "s/^  \"name\" : \"[^\"]*\"/  \"name\" : \"$EDIT_NAME\"/" "$1"
                """#.utf8), to: "editor.sh", in: references.url)
        chmod(references.path("editor.sh"), 0o755)
        try FileManager.default.createDirectory(
            at: references.url.appendingPathComponent("edit-tmp"), withIntermediateDirectories: false)
        for (operation, output) in outputs where ![.packLarge, .importZip, .archiveLarge].contains(operation) {
            try expectSuccess(
                Run.docctl(
                    ["export", url("source.dkproj").path, "--format", format(operation), "-o", output],
                    in: references.url),
                "reference \(operation.rawValue)")
        }
        // The import's input, and what importing it makes.
        try FileManager.default.copyItem(
            at: references.url.appendingPathComponent("out.zip"), to: url("import.zip"))
        importDigest = try Fixtures.digest(of: url("import.zip"))
        try expectSuccess(
            Run.docctl(["import", url("import.zip").path, "-o", "imported.dkproj"], in: references.url),
            "reference import")
        imported = try BundleState(references.url.appendingPathComponent("imported.dkproj"))
    }

    /// Runs every operation once to completion: each must succeed and pass its checks, and
    /// its time sets the range of kill delays.
    private func calibrate() throws {
        for operation in Operation.allCases {
            try trial(operation, kill: .never, counted: false)
        }
    }

    struct HarnessFailure: Error, CustomStringConvertible { var description: String }

    private func expectSuccess(_ result: ExternalTool.Result, _ what: String) throws {
        guard result.status == 0 else {
            throw HarnessFailure(description: "\(what) failed (\(result.status)): \(result.standardError)")
        }
    }

    func format(_ operation: Operation) -> String {
        switch operation {
        case .exportZip: "zip"
        case .exportTarZstd: "tar.zst"
        default: "dir"
        }
    }

    // MARK: - Trials

    /// Runs `count` trials and returns what they found.
    func run(trials count: Int) -> Report {
        for number in 1...max(count, 1) where count > 0 {
            let operation = pick()
            let moment = chooseMoment(for: operation)
            do {
                try trial(operation, kill: moment, counted: true)
            } catch {
                report.failures.append("trial \(number) (\(operation.rawValue), kill \(moment)): \(error)")
            }
            if report.failures.count >= 10 { break }
        }
        do {
            try finish()
        } catch {
            report.failures.append("final saves: \(error)")
        }
        return report
    }

    private func pick() -> Operation {
        var choice = Int.random(in: 0..<Operation.allCases.map(\.weight).reduce(0, +), using: &random)
        for operation in Operation.allCases {
            if choice < operation.weight { return operation }
            choice -= operation.weight
        }
        return .setSmall
    }

    /// When a trial kills docctl.
    enum KillMoment: CustomStringConvertible {
        /// Not at all: the run must complete.
        case never
        /// This many microseconds after it starts.
        case after(useconds_t)
        /// This many microseconds after its first temporary file or journal appears: a kill
        /// aimed at the write itself, which is a small part of a run's time.
        case whileWriting(useconds_t)
        /// This many microseconds after the journal of its save in place goes: a kill aimed
        /// at the sweep that follows the commit (FORMAT.md §8, step A5). A run that writes
        /// no journal (a rewrite) is not killed.
        case afterCommit(useconds_t)

        var description: String {
            switch self {
            case .never: "never"
            case .after(let delay): "after \(delay) µs"
            case .whileWriting(let delay): "\(delay) µs into the write"
            case .afterCommit(let delay): "\(delay) µs after the commit"
            }
        }
    }

    /// 6% at once, 8% never, 40% while it writes, 12% just after a save in place is
    /// committed, and otherwise anywhere in the operation's usual time.
    private func chooseMoment(for operation: Operation) -> KillMoment {
        let roll = Double.random(in: 0..<1, using: &random)
        func delay(within seconds: Double) -> useconds_t {
            useconds_t(Double.random(in: 0..<max(seconds, 0.001), using: &random) * 1_000_000)
        }
        if roll < 0.06 { return .after(0) }
        if roll < 0.14 { return .never }
        if roll < 0.54 { return .whileWriting(delay(within: (writing[operation] ?? 0.02) * 1.2)) }
        if roll < 0.66 { return .afterCommit(delay(within: 0.003)) }
        return .after(delay(within: nominal[operation] ?? 0.2))
    }

    private func trial(_ requested: Operation, kill moment: KillMoment, counted: Bool) throws {
        let plan = try self.plan(requested)
        let before = leftovers()
        let clock = ContinuousClock()
        let started = clock.now
        let process = try DocctlProcess(plan.arguments, in: directory.url, environment: plan.environment)
        var killed = false
        switch moment {
        case .never:
            break
        case .after(let delay):
            usleep(delay)
            killed = process.isRunning
        case .whileWriting(let delay):
            var began: ContinuousClock.Instant?
            while process.isRunning, began == nil {
                if leftovers().contains(where: { owner(of: $0.key) == plan.target && before[$0.key] != $0.value }) {
                    began = clock.now
                } else {
                    usleep(500)
                }
            }
            guard let began else { break }
            usleep(delay)
            killed = process.isRunning
            if !killed {
                let elapsed = clock.now - began
                writing[plan.operation] =
                    Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            }
        case .afterCommit(let delay):
            // This run's journal: one that was not there before, or another file under its name.
            let journal = ".\(plan.target).dk-append"
            var appeared = false
            while process.isRunning {
                let now = leftovers()[journal]
                if let now, now != before[journal] {
                    appeared = true
                } else if appeared, now == nil {
                    break
                }
                usleep(100)
            }
            guard appeared else { break }
            usleep(delay)
            killed = process.isRunning
        }
        if killed { process.send(SIGKILL) }
        let outcome = process.wait()
        killed = killed && outcome.signaled && outcome.status == SIGKILL
        if !killed {
            // How long the operation takes, for choosing later kill moments.
            let elapsed = clock.now - started
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            nominal[plan.operation] = nominal[plan.operation].map { 0.7 * $0 + 0.3 * seconds } ?? seconds
        }
        if !killed, outcome.signaled || outcome.status != 0 {
            throw HarnessFailure(
                description:
                    "\(plan.arguments.joined(separator: " ")) failed (\(outcome.status)): \(outcome.standardError)")
        }

        // Temporaries: only ours, only from killed runs, none left by a run that succeeded.
        let after = leftovers()
        for (name, inode) in after {
            guard let owner = owner(of: name) else { throw HarnessFailure(description: "a stray file: \(name)") }
            if owner != plan.target, before[name] != inode {
                throw HarnessFailure(description: "\(name) appeared in a run on \(plan.target)")
            }
            if owner == plan.target, !killed {
                throw HarnessFailure(description: "\(name) is left after a run that succeeded")
            }
        }
        let midSave = killed && after.contains { owner(of: $0.key) == plan.target && before[$0.key] != $0.value }

        let isNew: Bool
        switch plan.expectation {
        case .bundle(let name, let old, let matches):
            let validate = try Run.docctl(["validate", "--deep", name], in: directory.url)
            guard validate.status == 0 else {
                throw HarnessFailure(description: "validate --deep \(name) (\(validate.status)): \(validate.output)")
            }
            let state = try BundleState(url(name))
            if state == old {
                isNew = false
            } else if try matches(state) {
                isNew = true
            } else {
                throw HarnessFailure(
                    description:
                        """
                        \(name) holds neither the old nor the new state (\(old.versions.count) versions before, \
                        \(state.versions.count) after)
                        """
                )
            }
            if !killed, !isNew {
                throw HarnessFailure(
                    description: "\(plan.arguments.joined(separator: " ")) succeeded but the bundle did not change")
            }
            // A run that finished swept what it superseded, and what the save before it left.
            if validate.output.contains("bundle.stale-readable") {
                guard killed else {
                    throw HarnessFailure(
                        description: "\(name): a sweep is unfinished after a run that finished: \(validate.output)")
                }
                if counted, isNew { report.sweepsCutShort += 1 }
            }
        case .export(let output, let reference, let replacing):
            guard try Fixtures.digest(of: url("source.dkproj")) == sourceDigest else {
                throw HarnessFailure(description: "the export's input changed")
            }
            let exists = (try? FileManager.default.attributesOfItem(atPath: url(output).path)) != nil
            if exists, !(try sameContents(url(output), reference)) {
                throw HarnessFailure(description: "\(output) exists but differs from a complete export")
            }
            if !killed, !exists { throw HarnessFailure(description: "\(output) is missing after a complete export") }
            isNew = exists && !replacing
        case .archive(let root, let source, let sourceState, let old, let new):
            guard try BundleState(url(source)) == sourceState else {
                throw HarnessFailure(description: "\(source), the archive's source, changed")
            }
            if OCFLDepositTests.validatorAvailable, let held = try archivedVersions(root), !held.isEmpty {
                let verdict = try RemoteInterruptionTests.validateRoot(url(root).path)
                guard verdict.valid, verdict.errors.isEmpty else {
                    throw HarnessFailure(description: "ocfl-validate \(root): \(verdict.output)")
                }
            }
            let held = try archivedVersions(root)
            if held == new {
                isNew = held != old
            } else if killed, held == old {
                isNew = false
            } else {
                throw HarnessFailure(
                    description:
                        "\(root) holds \(held?.count ?? 0) versions: neither the \(old?.count ?? 0) before nor \(new.count)"
                )
            }
        case .newBundle(let output, let expected, let previous, let inputIntact):
            guard try inputIntact() else {
                throw HarnessFailure(description: "the input of \(output) changed")
            }
            let exists = (try? FileManager.default.attributesOfItem(atPath: url(output).path)) != nil
            if !killed, !exists { throw HarnessFailure(description: "\(output) is missing after a complete copy") }
            if exists {
                let validate = try Run.docctl(["validate", "--deep", output], in: directory.url)
                guard validate.status == 0, !validate.output.contains("bundle.stale-readable") else {
                    throw HarnessFailure(
                        description: "validate --deep \(output) (\(validate.status)): \(validate.output)")
                }
                let state = try BundleState(url(output))
                guard state == expected || (killed && state == previous) else {
                    throw HarnessFailure(description: "\(output) holds neither the new bundle nor the one it replaces")
                }
                isNew = state == expected && previous != expected
            } else {
                isNew = false
            }
        }
        guard counted else { return }
        report.trials += 1
        report.byOperation[plan.operation, default: (0, 0)].trials += 1
        if killed {
            report.killed += 1
            if midSave {
                report.killedMidSave += 1
                report.byOperation[plan.operation, default: (0, 0)].midSave += 1
            }
            if isNew { report.killedAfterCommit += 1 }
        }
    }

    /// One more successful save of each bundle and export of each output: afterwards no
    /// temporary file of any kind is left, and every bundle validates. A save killed while
    /// it swept what it superseded (FORMAT.md §8, step A5) leaves bytes a streaming reader
    /// would take for the bundle's, and the next save finishes the sweep: after the final
    /// saves, none is left, and a reader walking local headers through a pipe gets the head.
    private func finish() throws {
        for name in bundles {
            try expectSuccess(
                try Run.docctl(["set", name, "name", "final"], in: directory.url), "final save of \(name)")
            let validate = try Run.docctl(["validate", "--deep", name], in: directory.url)
            try expectSuccess(validate, "final validation of \(name)")
            guard !validate.output.contains("bundle.stale-readable") else {
                throw HarnessFailure(
                    description: "\(name) still holds bytes a streaming reader would read: \(validate.output)")
            }
            if ExternalTool.python3.isAvailable {
                let walk = try StreamingReaders.walk(url(name))
                guard walk.documentData == [try BundleState(url(name)).document] else {
                    throw HarnessFailure(
                        description: "a reader walking \(name) from a pipe does not get the head alone: \(walk.names)")
                }
            }
        }
        for (operation, output) in outputs {
            let arguments =
                switch operation {
                case .packLarge: ["pack", "large.dkproj", "-o", output, "--force"]
                case .importZip: ["import", "import.zip", "-o", output, "--force"]
                case .archiveLarge: ["archive", "large.dkproj", output]
                default: ["export", "source.dkproj", "--format", format(operation), "-o", output, "--force"]
                }
            try expectSuccess(try Run.docctl(arguments, in: directory.url), "final \(operation.rawValue)")
        }
        if OCFLDepositTests.validatorAvailable {
            let verdict = try RemoteInterruptionTests.validateRoot(url("root").path)
            guard verdict.valid, verdict.errors.isEmpty else {
                throw HarnessFailure(description: "ocfl-validate root after the final archive: \(verdict.output)")
            }
        }
        let left = leftovers()
        guard left.isEmpty else {
            throw HarnessFailure(description: "left after the final saves: \(left.keys.sorted())")
        }
    }
}
