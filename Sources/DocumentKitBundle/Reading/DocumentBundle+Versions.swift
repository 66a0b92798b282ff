import DocumentKitArchive
import DocumentKitCore
import DocumentKitJSON
import Foundation

extension DocumentBundle {
    /// The version a user names: a number (`3`), an id or a unique id prefix of at least
    /// four digits, `head`, or `head~N` (N versions before the head).
    public func version(named name: String) throws -> BundleVersion {
        if history != nil, let found = try versionFromHistory(named: name) { return found }
        let manifest = try manifest
        let versions = manifest.versions
        let range = versions.isEmpty ? "none" : "\(versions.first!.number)–\(versions.last!.number)"
        func missing() -> DocumentKitError {
            let lowered = name.lowercased()
            let firstNumber = versions.first?.number ?? 1
            let wasPruned =
                (Int(name).map { $0 >= 1 && $0 < firstNumber } ?? false)
                || (lowered.count >= 4 && manifest.pruned.contains { $0.hasPrefix(lowered) })
            if wasPruned {
                return DocumentKitError(
                    .notFound, "version '\(name)' was pruned (versions \(range) remain)", path: url.relativePath)
            }
            return DocumentKitError(
                .notFound, "no version '\(name)' (versions \(range); use a number, an id prefix, head or head~N)",
                path: url.relativePath)
        }
        let lowered = name.lowercased()
        if lowered == "head" { return headVersion }
        if lowered.hasPrefix("head~"), let back = Int(lowered.dropFirst(5)), back >= 0 {
            // A walk of more steps than there are versions can only go round a cycle of
            // parents (a manifest that lies): refuse it rather than walk it for ever.
            guard back < versions.count else { throw missing() }
            var current = headVersion
            for _ in 0..<back {
                guard let parent = current.parents.first, let found = versions.first(where: { $0.id == parent }) else {
                    throw missing()
                }
                current = found
            }
            return current
        }
        if let number = Int(name), !(name.count >= 4 && name.allSatisfy(\.isHexDigit) && name.hasPrefix("0")) {
            if let found = versions.first(where: { $0.number == number }) { return found }
            if name.count < 4 { throw missing() }
        }
        guard lowered.count >= 4, lowered.allSatisfy(\.isHexDigit) else { throw missing() }
        let matches = versions.filter { $0.id.hasPrefix(lowered) }
        guard matches.count <= 1 else {
            throw DocumentKitError(
                .usage,
                """
                version id prefix '\(name)' is ambiguous: it matches \
                \(matches.map(\.shortID).joined(separator: ", "))
                """,
                path: url.relativePath)
        }
        guard let found = matches.first else { throw missing() }
        return found
    }

    /// The version at `place`, numbered by it: in a format-3 bundle read from its segment
    /// alone, whatever the length of the history. `nil` when no version has that place.
    package func version(atPlace place: Int) throws -> BundleVersion? {
        guard let history else {
            let versions = decodedManifest.versions
            let index = place - (versions.first?.number ?? 1)
            return versions.indices.contains(index) ? versions[index] : nil
        }
        guard place > history.manifest.pruned, place <= history.lastPlace else { return nil }
        let located = try DocumentKitError.located(at: url.relativePath) { try history.version(atPlace: place) }
        if let tree = located.placedTree { placedObjects.mutate { $0[tree.digest] = tree } }
        return located.version
    }

    /// The number of the first version the bundle holds, and of its last.
    package var places: ClosedRange<Int> {
        if let history { return (history.manifest.pruned + 1)...history.lastPlace }
        return (decodedManifest.versions.first?.number ?? 1)...(decodedManifest.versions.last?.number ?? 0)
    }

    /// Passes every version to `body`, newest first (each before its parents), until it
    /// returns `false`: a format-3 history read a row and a block at a time, as far as
    /// `body` goes, without keeping what it read; an older bundle's from its manifest.
    package func forEachVersionNewestFirst(_ body: (BundleVersion) throws -> Bool) throws {
        guard let history else {
            for version in try manifest.versions.reversed() where try !body(version) { return }
            return
        }
        try DocumentKitError.located(at: url.relativePath) {
            try history.forEachVersionNewestFirst { try body($0.version) }
        }
    }

    /// The version's first parent, when the bundle holds it: in a format-3 bundle looked
    /// for at the place before the version's first, then in the whole history.
    package func firstParent(of version: BundleVersion) throws -> BundleVersion? {
        guard let parent = version.parents.first else { return nil }
        if let before = try self.version(atPlace: version.number - 1), before.id == parent { return before }
        return try manifest.versions.first { $0.id == parent }
    }

    /// `head`, `head~N` and version numbers, read from a format-3 history without listing
    /// it; `nil` for a name these do not cover (an id prefix, a pruned number), which the
    /// listing then answers or explains.
    private func versionFromHistory(named name: String) throws -> BundleVersion? {
        let lowered = name.lowercased()
        if lowered == "head" { return headVersion }
        if lowered.hasPrefix("head~"), let back = Int(lowered.dropFirst(5)), back >= 0, back < places.count {
            var current = headVersion
            for _ in 0..<back {
                guard let parent = try firstParent(of: current) else { return nil }
                current = parent
            }
            return current
        }
        if let number = Int(name), !(name.count >= 4 && name.allSatisfy(\.isHexDigit) && name.hasPrefix("0")) {
            return try version(atPlace: number)
        }
        return nil
    }
}

extension DocumentBundle {
    /// A format-3 bundle's versions newest first, read as they are asked for, each
    /// numbered by its place; `nil` for a format-1 or 2 bundle, whose manifest lists them.
    package struct VersionsNewestFirst {
        private var walk: BundleHistory.NewestFirst
        private let bundle: DocumentBundle

        init(_ bundle: DocumentBundle, history: BundleHistory) {
            self.bundle = bundle
            walk = history.newestFirst()
        }

        /// The next version, older than the last; `nil` past the oldest the bundle holds.
        package mutating func next() throws -> BundleVersion? {
            let bundle = bundle
            let located = try DocumentKitError.located(at: bundle.url.relativePath) { try walk.next() }
            // A root tree stored by place is found only through its version: kept, so that
            // the version's objects can be read afterwards.
            if let tree = located?.placedTree { bundle.placedObjects.mutate { $0[tree.digest] = tree } }
            return located?.version
        }
    }

    /// The versions newest first, read as they are asked for (format 3; else `nil`).
    package func versionsNewestFirst() -> VersionsNewestFirst? {
        history.map { VersionsNewestFirst(self, history: $0) }
    }

    /// The ids of the versions pruned from the bundle, oldest first: in a format-3 bundle
    /// read from the blocks that hold them, and none when it pruned none.
    package func prunedVersionIDs() throws -> [VersionID] {
        guard let history else { return decodedManifest.pruned }
        return try DocumentKitError.located(at: url.relativePath) { try history.prunedIDs() }
    }
}
