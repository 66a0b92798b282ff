import Foundation

@testable import DocumentKit

/// What each trial runs, and what it may leave: the state before, or the one the
/// operation makes.
extension CrashHarness {
    /// The arguments and expectation of one run of `operation`, for the files as they are
    /// now; an operation that cannot run usefully (a prune of a short history, a restore
    /// with nothing different to restore) becomes an edit instead.
    func plan(_ operation: Operation) throws -> Plan {
        switch operation {
        case .setSmall, .setLarge:
            let name = operation == .setSmall ? "small.dkproj" : "large.dkproj"
            let old = try BundleState(url(name))
            let count = try old.json.value(at: JSONPath(parsing: "tasks")).arrayCount
            let path =
                Bool.random(using: &random) || count == 0
                ? "name" : "tasks[\(Int.random(in: 0..<count, using: &random))].title"
            let value = "edit \(UInt32.random(in: 0...UInt32.max, using: &random))"
            var expected = try old.json
            try expected.setValue(.string(value), at: JSONPath(parsing: path))
            return Plan(
                operation: operation, arguments: ["set", name, path, value],
                expectation: .bundle(name, old: old, isNew: Self.oneMoreVersion(after: old, document: expected)))
        case .unsetLarge:
            let old = try BundleState(url("large.dkproj"))
            guard try old.json.value(at: JSONPath(parsing: "tasks")).arrayCount > 20 else { return try plan(.setLarge) }
            var expected = try old.json
            try expected.removeValue(at: JSONPath(parsing: "tasks[-1]"))
            return Plan(
                operation: operation, arguments: ["unset", "large.dkproj", "tasks[-1]"],
                expectation: .bundle(
                    "large.dkproj", old: old, isNew: Self.oneMoreVersion(after: old, document: expected)))
        case .attachLarge:
            let old = try BundleState(url("large.dkproj"))
            let current = try old.json.thumbnailDigest
            let file = ["a.bin", "b.bin", "big.bin"].filter { current != attachmentDigests[$0]! }.randomElement(
                using: &random)!
            let digest = attachmentDigests[file]!
            return Plan(
                operation: operation, arguments: ["attach", "large.dkproj", file, "--as", "thumbnail"],
                expectation: .bundle("large.dkproj", old: old) { new in
                    guard new.versions.dropLast() == old.versions[...], new.versions.count == old.versions.count + 1
                    else { return false }
                    var before = try old.json
                    var after = try new.json
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
            guard old.versions.count > floor + 1 else {
                return try plan(operation == .pruneSmall ? .setSmall : .setLarge)
            }
            let keep = Int.random(in: max(floor, old.versions.count - 8)...(old.versions.count - 1), using: &random)
            return Plan(
                operation: operation, arguments: ["prune", name, "--keep", "\(keep)"],
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
            return Plan(
                operation: operation, arguments: ["migrate", "legacy.dkproj"],
                expectation: .bundle("legacy.dkproj", old: old) { $0 == migrated })
        case .restoreSmall, .restoreLarge:
            let name = operation == .restoreSmall ? "small.dkproj" : "large.dkproj"
            let bundle = try DocumentBundle(contentsOf: url(name))
            let old = try BundleState(url(name))
            let candidates = try bundle.manifest.versions.dropLast().shuffled(using: &random)
            guard let version = try candidates.first(where: { try bundle.documentData(of: $0) != old.document }) else {
                return try plan(operation == .restoreSmall ? .setSmall : .setLarge)
            }
            let document = try bundle.documentData(of: version)
            return Plan(
                operation: operation, arguments: ["restore", name, "\(version.number)"],
                expectation: .bundle(name, old: old) { new in
                    new.versions.dropLast() == old.versions[...] && new.versions.count == old.versions.count + 1
                        && new.document == document
                })
        case .packLarge:
            let output = outputs[operation]!
            let source = try BundleState(url("large.dkproj"))
            let exists = (try? FileManager.default.attributesOfItem(atPath: url(output).path)) != nil
            // Half the time over the copy an earlier trial made (--force), half the time to a new one.
            let replacing = exists && Bool.random(using: &random)
            if exists, !replacing { try FileManager.default.removeItem(at: url(output)) }
            return Plan(
                operation: operation,
                arguments: ["pack", "large.dkproj", "-o", output] + (replacing ? ["--force"] : []),
                expectation: .newBundle(
                    output, expected: source, previous: replacing ? try BundleState(url(output)) : nil,
                    inputIntact: { [url] in try BundleState(url("large.dkproj")) == source }))
        case .editSmall:
            // `docctl edit` with an editor that renames the project.
            let old = try BundleState(url("small.dkproj"))
            let value = "edited \(UInt32.random(in: 0...UInt32.max, using: &random))"
            var expected = try old.json
            try expected.setValue(.string(value), at: JSONPath(parsing: "name"))
            return Plan(
                operation: operation, arguments: ["edit", "small.dkproj"],
                expectation: .bundle(
                    "small.dkproj", old: old, isNew: Self.oneMoreVersion(after: old, document: expected)),
                environment: [
                    "EDITOR": references.path("editor.sh"), "EDIT_NAME": value,
                    "TMPDIR": references.path("edit-tmp")
                ])
        case .pullSmall:
            // Another copy with one more version; half the time the bundle has one of its
            // own too, and the pull merges. What it makes is what it makes of copies.
            let incoming = url("incoming.dkproj")
            try? FileManager.default.removeItem(at: incoming)
            try FileManager.default.copyItem(at: url("small.dkproj"), to: incoming)
            let tasks = try BundleState(incoming).json.value(at: JSONPath(parsing: "tasks")).arrayCount
            let theirs = "theirs \(UInt32.random(in: 0...UInt32.max, using: &random))"
            _ = try BundleEdits.set(
                .string(theirs), at: JSONPath(parsing: tasks > 0 ? "tasks[0].title" : "name"), in: incoming,
                metadata: metadata)
            if Bool.random(using: &random) {
                _ = try BundleEdits.set(
                    .string("ours \(theirs)"), at: JSONPath(parsing: "summary"), in: url("small.dkproj"),
                    metadata: metadata)
            }
            let old = try BundleState(url("small.dkproj"))
            let expected = try completeRun(
                ["pull", "small.dkproj", "incoming.dkproj"], copying: ["small.dkproj", "incoming.dkproj"],
                reading: "small.dkproj")
            return Plan(
                operation: operation, arguments: ["pull", "small.dkproj", "incoming.dkproj"],
                expectation: .bundle("small.dkproj", old: old) { $0 == expected })
        case .importZip:
            let output = outputs[operation]!
            let exists = (try? FileManager.default.attributesOfItem(atPath: url(output).path)) != nil
            // Half the time over the bundle an earlier trial made (--force), half the time to a new one.
            let replacing = exists && Bool.random(using: &random)
            if exists, !replacing { try FileManager.default.removeItem(at: url(output)) }
            let digest = importDigest
            return Plan(
                operation: operation,
                arguments: ["import", "import.zip", "-o", output] + (replacing ? ["--force"] : []),
                expectation: .newBundle(
                    output, expected: imported, previous: replacing ? try BundleState(url(output)) : nil,
                    inputIntact: { [url] in try Fixtures.digest(of: url("import.zip")) == digest }))
        case .archiveLarge:
            // An OCFL copy of the large bundle's history, in the root `root`.
            let root = outputs[operation]!
            let old = try archivedVersions(root)
            let new = try completeRun(
                ["archive", "large.dkproj", root], copying: ["large.dkproj", root], archived: root)
            return Plan(
                operation: operation, arguments: ["archive", "large.dkproj", root],
                expectation: .archive(
                    root, source: "large.dkproj", sourceState: try BundleState(url("large.dkproj")), old: old,
                    new: new))
        case .exportZip, .exportTarZstd, .exportDir:
            let output = outputs[operation]!
            let exists = (try? FileManager.default.attributesOfItem(atPath: url(output).path)) != nil
            // Half the time over an existing output (--force), half the time to a new one.
            let replacing = exists && Bool.random(using: &random)
            if exists, !replacing { try FileManager.default.removeItem(at: url(output)) }
            return Plan(
                operation: operation,
                arguments: ["export", "source.dkproj", "--format", format(operation), "-o", output]
                    + (replacing ? ["--force"] : []),
                expectation: .export(
                    output, reference: references.url.appendingPathComponent(output), replacing: replacing))
        }
    }

    /// A check for a state with one more version than `old` whose document is `document`.
    private static func oneMoreVersion(after old: BundleState, document: JSONValue) -> (BundleState) throws -> Bool {
        { new in
            guard new.versions.dropLast() == old.versions[...], new.versions.count == old.versions.count + 1 else {
                return false
            }
            return try new.json == document
        }
    }
}
