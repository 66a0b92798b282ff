import Foundation
import Testing
@testable import DocumentKit

/// Kills docctl (SIGKILL) at random moments while it saves, and checks after every kill
/// that nothing was lost and nothing was damaged.
///
/// Each trial picks an operation on one of four files: small and large bundles (the large
/// one has a 16 MB blob and a history of dozens of versions), a legacy 1.0.0 bundle to
/// migrate, and a bundle to export. It starts docctl, kills it after a random delay (now
/// and then at once, now and then never), and then checks:
///
/// - the bundle passes `docctl validate --deep`;
/// - its versions and head document are exactly those before the trial, or exactly what
///   the operation makes of them (each operation says which: the edit applied, versions
///   dropped by a prune, the migrated bundle, the restored document);
/// - an export's input is byte-identical, and its output is absent or complete (identical
///   to a reference export), never a damaged file under the final name;
/// - only temporary files of our own naming are left (`.NAME.dk-append`,
///   `.NAME.dk-XXXXXXXX.tmp`), only by killed runs, and none survives the next run on the
///   same file that succeeds.
///
/// A kill counts as *mid-save* when it left such a temporary file: the run had begun
/// writing. Settings: `DOCUMENTKIT_CRASH_TRIALS` (trials), `DOCUMENTKIT_CRASH_SEED` (seed;
/// random by default, printed so that a failure can be replayed).
final class CrashHarness {
    enum Operation: String, CaseIterable {
        case setSmall = "set small", setLarge = "set large", unsetLarge = "unset large", attachLarge = "attach large"
        case pruneSmall = "prune small", pruneLarge = "prune large", migrateLegacy = "migrate legacy"
        case restoreSmall = "restore small", restoreLarge = "restore large"
        case exportZip = "export zip", exportTarZstd = "export tar.zst", exportDir = "export dir"

        /// How often it is picked, relative to the others: the long writes, where kills land
        /// mid-save most often, more than the short ones.
        var weight: Int {
            switch self {
            case .setLarge, .attachLarge, .pruneLarge: 12
            case .setSmall, .migrateLegacy, .exportDir: 9
            case .exportZip, .exportTarZstd, .pruneSmall: 7
            case .unsetLarge, .restoreSmall, .restoreLarge: 5
            }
        }
    }

    /// What a run found.
    struct Report: CustomStringConvertible {
        var seed: UInt64
        var trials = 0
        /// Runs killed while still running.
        var killed = 0
        /// Killed runs that had begun writing: they left a temporary file or journal.
        var killedMidSave = 0
        /// Killed runs whose change had already been committed (the new state was found).
        var killedAfterCommit = 0
        var failures: [String] = []
        var byOperation: [Operation: (trials: Int, midSave: Int)] = [:]

        var description: String {
            let operations = Operation.allCases.compactMap { operation in
                byOperation[operation].map { "\(operation.rawValue) \($0.trials)/\($0.midSave)" }
            }.joined(separator: ", ")
            return """
                crash harness (seed \(seed)): \(trials) trials, \(killed) killed while running, \(killedMidSave) of them mid-save \
                (a temporary file or journal left), \(killedAfterCommit) after the commit, \(trials - killed) not killed; \
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
            versions = bundle.manifest.versions.map(\.id)
            document = try bundle.headDocumentData()
        }

        var json: JSONValue { get throws { try JSONValue.parse(document) } }
    }

    /// What a trial may leave: the old state, or the one the operation makes.
    private enum Expectation {
        case bundle(String, old: BundleState, isNew: (BundleState) throws -> Bool)
        case export(String, reference: URL, replacing: Bool)
    }

    private struct Plan {
        var operation: Operation
        var arguments: [String]
        var expectation: Expectation
        /// The file whose temporaries this run may leave: the bundle, or the export's output.
        var target: String { switch expectation { case .bundle(let name, _, _), .export(let name, _, _): name } }
    }

    private let directory: TemporaryDirectory
    private let references: TemporaryDirectory
    private var random: SeededRandom
    private var report: Report
    /// How long each operation takes when not killed, in seconds, for choosing kill delays.
    private var nominal: [Operation: Double] = [:]
    /// How long its temporary files live (the write), in seconds, as last seen.
    private var writing: [Operation: Double] = [:]
    private var attachmentDigests: [String: String] = [:]
    private var migrated: BundleState!
    private var sourceDigest = ""
    private let bundles = ["small.dkproj", "large.dkproj", "legacy.dkproj"]
    private let outputs: [Operation: String] = [.exportZip: "out.zip", .exportTarZstd: "out.tar.zst", .exportDir: "outdir"]
    private let metadata = SaveMetadata(author: "harness", message: "setup", created: Date(timeIntervalSince1970: 1_767_225_600))

    /// The number of trials the environment asks for, else `default`.
    static func trials(default value: Int) -> Int {
        ProcessInfo.processInfo.environment["DOCUMENTKIT_CRASH_TRIALS"].flatMap(Int.init) ?? value
    }

    /// The seed the environment asks for, else a random one.
    static var seed: UInt64 {
        ProcessInfo.processInfo.environment["DOCUMENTKIT_CRASH_SEED"].flatMap { UInt64($0) } ?? UInt64.random(in: 1...UInt64(UInt32.max))
    }

    init(seed: UInt64) throws {
        directory = try TemporaryDirectory("crash-harness")
        references = try TemporaryDirectory("crash-harness-references")
        random = SeededRandom(seed: seed)
        report = Report(seed: seed)
        try makeFiles()
        try calibrate()
    }

    // MARK: - Setup

    private func url(_ name: String) -> URL { directory.url.appendingPathComponent(name) }

    /// The bundles, attachments and reference exports, made with the library (faster than
    /// one docctl process per version).
    private func makeFiles() throws {
        for (name, size, seed) in [("big.bin", 16_000_000, 1), ("a.bin", 8_000_000, 2), ("b.bin", 8_000_000, 3)] as [(String, Int, UInt64)] {
            let data = Fixtures.noise(size, seed: seed)
            try Fixtures.write(data, to: name, in: directory.url)
            attachmentDigests[name] = ObjectDigest.of(data).hex
        }
        _ = try BundleEditor.create(at: url("small.dkproj"), json: GeneratedProject.document(taskCount: 4, seed: 1), metadata: metadata)
        let large = url("large.dkproj")
        _ = try BundleEditor.create(at: large, json: GeneratedProject.document(taskCount: 200, seed: 2), metadata: metadata)
        _ = try BundleEditor.attach(url("big.bin"), at: JSONPath(parsing: "thumbnail"), in: large, metadata: metadata)
        for index in 1...30 {
            _ = try BundleEditor.set(.string("setup \(index)"), at: JSONPath(parsing: "tasks[\(index)].title"), in: large, metadata: metadata)
        }
        try FileManager.default.copyItem(at: large, to: url("source.dkproj"))
        sourceDigest = try Fixtures.digest(of: url("source.dkproj"))
        try FileManager.default.copyItem(at: Fixtures.sampleDoc("legacy-v1.dkproj"), to: url("legacy.dkproj"))

        // What a completed migration and each export make, for comparison.
        let legacy = references.url.appendingPathComponent("legacy.dkproj")
        try FileManager.default.copyItem(at: Fixtures.sampleDoc("legacy-v1.dkproj"), to: legacy)
        try expectSuccess(Run.docctl(["migrate", legacy.path], in: references.url), "reference migration")
        migrated = try BundleState(legacy)
        for (operation, output) in outputs {
            try expectSuccess(Run.docctl(["export", url("source.dkproj").path, "--format", format(operation), "-o", output], in: references.url),
                              "reference \(operation.rawValue)")
        }
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
        guard result.status == 0 else { throw HarnessFailure(description: "\(what) failed (\(result.status)): \(result.standardError)") }
    }

    private func format(_ operation: Operation) -> String {
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

        var description: String {
            switch self {
            case .never: "never"
            case .after(let delay): "after \(delay) µs"
            case .whileWriting(let delay): "\(delay) µs into the write"
            }
        }
    }

    /// 6% at once, 8% never, 40% while it writes, and otherwise anywhere in the
    /// operation's usual time.
    private func chooseMoment(for operation: Operation) -> KillMoment {
        let roll = Double.random(in: 0..<1, using: &random)
        func delay(within seconds: Double) -> useconds_t {
            useconds_t(Double.random(in: 0..<max(seconds, 0.001), using: &random) * 1_000_000)
        }
        if roll < 0.06 { return .after(0) }
        if roll < 0.14 { return .never }
        if roll < 0.54 { return .whileWriting(delay(within: (writing[operation] ?? 0.02) * 1.2)) }
        return .after(delay(within: nominal[operation] ?? 0.2))
    }

    private func trial(_ requested: Operation, kill moment: KillMoment, counted: Bool) throws {
        let plan = try self.plan(requested)
        let before = leftovers()
        let clock = ContinuousClock()
        let started = clock.now
        let process = try DocctlProcess(plan.arguments, in: directory.url)
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
                writing[plan.operation] = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            }
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
            throw HarnessFailure(description: "\(plan.arguments.joined(separator: " ")) failed (\(outcome.status)): \(outcome.standardError)")
        }

        // Temporaries: only ours, only from killed runs, none left by a run that succeeded.
        let after = leftovers()
        for (name, inode) in after {
            guard let owner = owner(of: name) else { throw HarnessFailure(description: "a stray file: \(name)") }
            if owner != plan.target, before[name] != inode { throw HarnessFailure(description: "\(name) appeared in a run on \(plan.target)") }
            if owner == plan.target, !killed { throw HarnessFailure(description: "\(name) is left after a run that succeeded") }
        }
        let midSave = killed && after.contains { owner(of: $0.key) == plan.target && before[$0.key] != $0.value }

        let isNew: Bool
        switch plan.expectation {
        case .bundle(let name, let old, let matches):
            let validate = try Run.docctl(["validate", "--deep", name], in: directory.url)
            guard validate.status == 0 else { throw HarnessFailure(description: "validate --deep \(name) (\(validate.status)): \(validate.output)") }
            let state = try BundleState(url(name))
            if state == old {
                isNew = false
            } else if try matches(state) {
                isNew = true
            } else {
                throw HarnessFailure(description: "\(name) holds neither the old nor the new state (\(old.versions.count) versions before, \(state.versions.count) after)")
            }
            if !killed, !isNew {
                throw HarnessFailure(description: "\(plan.arguments.joined(separator: " ")) succeeded but the bundle did not change")
            }
        case .export(let output, let reference, let replacing):
            guard try Fixtures.digest(of: url("source.dkproj")) == sourceDigest else { throw HarnessFailure(description: "the export's input changed") }
            let exists = (try? FileManager.default.attributesOfItem(atPath: url(output).path)) != nil
            if exists, !(try sameContents(url(output), reference)) {
                throw HarnessFailure(description: "\(output) exists but differs from a complete export")
            }
            if !killed, !exists { throw HarnessFailure(description: "\(output) is missing after a complete export") }
            isNew = exists && !replacing
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
    /// temporary file of any kind is left, and every bundle validates.
    private func finish() throws {
        for name in bundles {
            try expectSuccess(try Run.docctl(["set", name, "name", "final"], in: directory.url), "final save of \(name)")
            try expectSuccess(try Run.docctl(["validate", "--deep", name], in: directory.url), "final validation of \(name)")
        }
        for (operation, output) in outputs {
            try expectSuccess(try Run.docctl(["export", "source.dkproj", "--format", format(operation), "-o", output, "--force"], in: directory.url),
                              "final \(operation.rawValue)")
        }
        let left = leftovers()
        guard left.isEmpty else { throw HarnessFailure(description: "left after the final saves: \(left.keys.sorted())") }
    }

    // MARK: - Plans

    private func plan(_ operation: Operation) throws -> Plan {
        switch operation {
        case .setSmall, .setLarge:
            let name = operation == .setSmall ? "small.dkproj" : "large.dkproj"
            let old = try BundleState(url(name))
            let count = try old.json.value(at: JSONPath(parsing: "tasks")).arrayCount
            let path = Bool.random(using: &random) || count == 0 ? "name" : "tasks[\(Int.random(in: 0..<count, using: &random))].title"
            let value = "edit \(UInt32.random(in: 0...UInt32.max, using: &random))"
            var expected = try old.json
            try expected.setValue(.string(value), at: JSONPath(parsing: path))
            return Plan(operation: operation, arguments: ["set", name, path, value],
                        expectation: .bundle(name, old: old, isNew: Self.oneMoreVersion(after: old, document: expected)))
        case .unsetLarge:
            let old = try BundleState(url("large.dkproj"))
            guard try old.json.value(at: JSONPath(parsing: "tasks")).arrayCount > 20 else { return try plan(.setLarge) }
            var expected = try old.json
            try expected.removeValue(at: JSONPath(parsing: "tasks[-1]"))
            return Plan(operation: operation, arguments: ["unset", "large.dkproj", "tasks[-1]"],
                        expectation: .bundle("large.dkproj", old: old, isNew: Self.oneMoreVersion(after: old, document: expected)))
        case .attachLarge:
            let old = try BundleState(url("large.dkproj"))
            let current = try old.json.thumbnailDigest
            let file = ["a.bin", "b.bin", "big.bin"].filter { current != attachmentDigests[$0]! }.randomElement(using: &random)!
            let digest = attachmentDigests[file]!
            return Plan(operation: operation, arguments: ["attach", "large.dkproj", file, "--as", "thumbnail"],
                        expectation: .bundle("large.dkproj", old: old) { new in
                guard new.versions.dropLast() == old.versions[...], new.versions.count == old.versions.count + 1 else { return false }
                var before = try old.json, after = try new.json
                guard after.thumbnailDigest == digest else { return false }
                try before.removeValue(at: JSONPath(parsing: "thumbnail"))
                try after.removeValue(at: JSONPath(parsing: "thumbnail"))
                return before == after
            })
        case .pruneSmall, .pruneLarge:
            let name = operation == .pruneSmall ? "small.dkproj" : "large.dkproj"
            let old = try BundleState(url(name))
            // Keep the large history long: prune it only down to 20 versions.
            let floor = operation == .pruneLarge ? 20 : 2
            guard old.versions.count > floor + 1 else { return try plan(operation == .pruneSmall ? .setSmall : .setLarge) }
            let keep = Int.random(in: max(floor, old.versions.count - 8)...(old.versions.count - 1), using: &random)
            return Plan(operation: operation, arguments: ["prune", name, "--keep", "\(keep)"],
                        expectation: .bundle(name, old: old) { new in
                new.versions == Array(old.versions.suffix(keep)) && new.document == old.document
            })
        case .migrateLegacy:
            // A fresh copy of the 1.0.0 bundle each time; what killed runs left beside it stays.
            let legacy = url("legacy.dkproj")
            try FileManager.default.removeItem(at: legacy)
            try FileManager.default.copyItem(at: Fixtures.sampleDoc("legacy-v1.dkproj"), to: legacy)
            let old = try BundleState(legacy)
            let migrated = self.migrated!
            return Plan(operation: operation, arguments: ["migrate", "legacy.dkproj"],
                        expectation: .bundle("legacy.dkproj", old: old) { $0 == migrated })
        case .restoreSmall, .restoreLarge:
            let name = operation == .restoreSmall ? "small.dkproj" : "large.dkproj"
            let bundle = try DocumentBundle(contentsOf: url(name))
            let old = try BundleState(url(name))
            let candidates = bundle.manifest.versions.dropLast().shuffled(using: &random)
            guard let version = try candidates.first(where: { try bundle.documentData(of: $0) != old.document }) else {
                return try plan(operation == .restoreSmall ? .setSmall : .setLarge)
            }
            let document = try bundle.documentData(of: version)
            return Plan(operation: operation, arguments: ["restore", name, "\(version.number)"],
                        expectation: .bundle(name, old: old) { new in
                new.versions.dropLast() == old.versions[...] && new.versions.count == old.versions.count + 1 && new.document == document
            })
        case .exportZip, .exportTarZstd, .exportDir:
            let output = outputs[operation]!
            let exists = (try? FileManager.default.attributesOfItem(atPath: url(output).path)) != nil
            // Half the time over an existing output (--force), half the time to a new one.
            let replacing = exists && Bool.random(using: &random)
            if exists, !replacing { try FileManager.default.removeItem(at: url(output)) }
            return Plan(operation: operation,
                        arguments: ["export", "source.dkproj", "--format", format(operation), "-o", output] + (replacing ? ["--force"] : []),
                        expectation: .export(output, reference: references.url.appendingPathComponent(output), replacing: replacing))
        }
    }

    /// A check for a state with one more version than `old` whose document is `document`.
    private static func oneMoreVersion(after old: BundleState, document: JSONValue) -> (BundleState) throws -> Bool {
        { new in
            guard new.versions.dropLast() == old.versions[...], new.versions.count == old.versions.count + 1 else { return false }
            return try new.json == document
        }
    }

    // MARK: - Files

    /// The hidden files in the folder, by name, with their inode numbers (a journal written
    /// again has a new one).
    private func leftovers() -> [String: UInt64] {
        var found: [String: UInt64] = [:]
        for name in Fixtures.listing(directory.url) where name.hasPrefix(".") {
            var info = stat()
            lstat(url(name).path, &info)
            found[name] = UInt64(info.st_ino)
        }
        return found
    }

    /// The file a temporary of our naming belongs to, or `nil` if the name is not ours:
    /// `.NAME.dk-append`, `.NAME.dk-XXXXXXXX.tmp` or `.NAME.dk-old-XXXXXXXX.tmp`.
    private func owner(of name: String) -> String? {
        for target in bundles + outputs.values {
            let prefix = ".\(target).dk-"
            guard name.hasPrefix(prefix) else { continue }
            let rest = name.dropFirst(prefix.count)
            if rest == "append", bundles.contains(target) { return target }
            let random = rest.hasPrefix("old-") ? rest.dropFirst(4) : rest
            if random.hasSuffix(".tmp"), random.count == 12, random.dropLast(4).allSatisfy(\.isHexDigit) { return target }
        }
        return nil
    }

    /// Whether two files, or two folders (recursively), hold the same names and bytes.
    private func sameContents(_ first: URL, _ second: URL) throws -> Bool {
        let manager = FileManager.default
        var isFolder: ObjCBool = false
        guard manager.fileExists(atPath: first.path, isDirectory: &isFolder) else { return false }
        if !isFolder.boolValue { return try Data(contentsOf: first) == Data(contentsOf: second) }
        let names = try manager.contentsOfDirectory(atPath: first.path).sorted()
        let otherNames = try manager.contentsOfDirectory(atPath: second.path).sorted()
        guard names == otherNames else { return false }
        return try names.allSatisfy { try sameContents(first.appendingPathComponent($0), second.appendingPathComponent($0)) }
    }
}

private extension JSONValue {
    /// The digest of the blob a project's thumbnail refers to.
    var thumbnailDigest: String? {
        guard case .object(let document) = self, case .object(let thumbnail)? = document["thumbnail"],
              case .string(let digest)? = thumbnail["$blob"] else { return nil }
        return digest
    }

    /// The number of elements, for an array; 0 otherwise.
    var arrayCount: Int {
        if case .array(let elements) = self { return elements.count }
        return 0
    }
}
