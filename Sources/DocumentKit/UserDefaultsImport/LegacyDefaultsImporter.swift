import Foundation

/// Imports what an exported UserDefaults domain holds (`LegacyDefaults` lists the keys)
/// into a document of `type`, which has a `name` and an array of `drafts` (the sample
/// `Project`): `docctl import --legacy-defaults`. The export is only read.
///
/// Into an existing bundle, the drafts the project does not have yet are appended, in the
/// export's order, as one new version: a write transaction under the bundle's lock, as any
/// edit. A draft whose id the project has already is left as it is, even if its text was
/// edited since, and one the user deleted is added again. Draft ids come from the text
/// (`LegacyDefaults.draftID`), so importing the same export again adds nothing and saves
/// no version; neither does an import that has nothing to add (not even the migration of
/// a head of an older schema). Or the import creates a new bundle holding the drafts.
///
/// A draft's `createdAt` is its date from `draft_post_dates`, else the version's time
/// (`metadata.created`, which honours `SOURCE_DATE_EPOCH`).
///
/// ```swift
/// let report = try LegacyDefaultsImporter.importDefaults(
///     from: exportURL, into: bundleURL, type: Project.self,
///     metadata: SaveMetadata(author: "ada", message: "Import drafts"))
/// print(report.draftsAdded, report.draftsAlreadyPresent, report.ignoredKeys)
/// ```
public enum LegacyDefaultsImporter {
    /// What an import did, or with `dryRun` would do.
    public struct Report: Codable, Equatable, Sendable {
        /// The export, as given.
        public var source: String
        /// How the export is written.
        public var format: LegacyDefaults.Format
        /// The bundle, as given.
        public var bundle: String
        /// Whether the import creates the bundle (rather than adding to an existing one).
        public var newBundle: Bool
        /// Whether nothing was to be written.
        public var dryRun: Bool
        /// Whether a version was saved.
        public var saved: Bool
        /// The version saved, if one was.
        public var version: VersionSummary?
        /// The head before the import; `nil` for a new bundle.
        public var previous: VersionSummary?
        /// Drafts added (with `dryRun`: that would be added).
        public var draftsAdded: Int
        /// Drafts of the export the project has already (by id), left as they are.
        public var draftsAlreadyPresent: Int
        /// Blank strings of `draft_posts`, not imported.
        public var blankDraftsSkipped: Int
        /// The keys of the export this import did not use, sorted: every unknown key, and
        /// `project_name` unless it named a new bundle.
        public var ignoredKeys: [String]

        private enum CodingKeys: String, CodingKey {
            case source, format, bundle, newBundle, dryRun, saved, version, previous
            case draftsAdded, draftsAlreadyPresent, blankDraftsSkipped, ignoredKeys
        }

        /// Writes every member, `null` for what is absent, so scripts find the same keys
        /// in every report.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(source, forKey: .source)
            try container.encode(format, forKey: .format)
            try container.encode(bundle, forKey: .bundle)
            try container.encode(newBundle, forKey: .newBundle)
            try container.encode(dryRun, forKey: .dryRun)
            try container.encode(saved, forKey: .saved)
            if let version {
                try container.encode(version, forKey: .version)
            } else {
                try container.encodeNil(forKey: .version)
            }
            if let previous {
                try container.encode(previous, forKey: .previous)
            } else {
                try container.encodeNil(forKey: .previous)
            }
            try container.encode(draftsAdded, forKey: .draftsAdded)
            try container.encode(draftsAlreadyPresent, forKey: .draftsAlreadyPresent)
            try container.encode(blankDraftsSkipped, forKey: .blankDraftsSkipped)
            try container.encode(ignoredKeys, forKey: .ignoredKeys)
        }
    }

    /// Adds the drafts of the export at `source` that the project at `bundle` does not have
    /// yet, as one new version. With `dryRun`, or when there is none to add, nothing is
    /// written. A missing bundle is `missingInput`; a bundle of another type than
    /// `Project`, `unsupportedFormat`.
    @discardableResult
    public static func importDefaults(
        from source: URL, into bundle: URL, type: any CodableDocument.Type, dryRun: Bool = false,
        metadata: SaveMetadata
    ) throws -> Report {
        let defaults = try LegacyDefaults(contentsOf: source)
        // Said here, with the way out, rather than as the lock's "cannot open".
        guard FileTree.exists(bundle.path) else {
            throw DocumentKitError(.missingInput, "no such bundle", path: bundle.relativePath, remedy: .createBundle)
        }
        var report = Report(
            source: source.relativePath, format: defaults.format, bundle: bundle.relativePath, newBundle: false,
            dryRun: dryRun, saved: false, draftsAdded: 0, draftsAlreadyPresent: 0,
            blankDraftsSkipped: defaults.blankDrafts, ignoredKeys: ignoredKeys(of: defaults, namedProject: false))
        do {
            let outcome = try BundleEdits.edit(at: bundle, metadata: metadata) { json, context in
                guard let documentType = context.documentType,
                    documentType.contentType.identifier == type.contentType.identifier
                else {
                    throw DocumentKitError(
                        .unsupportedFormat,
                        """
                        holds \(context.documentType?.contentType.identifier ?? "unregistered") documents; legacy \
                        defaults are imported into \(type.contentType.identifier) documents only
                        """
                    )
                }
                (report.draftsAdded, report.draftsAlreadyPresent) = try add(
                    defaults.drafts, to: &json, createdAt: metadata.created)
                // Thrown to leave the transaction without saving: an unchanged document
                // would still be saved when the head's schema is older.
                if report.draftsAdded == 0 || dryRun { throw NothingToSave() }
            }
            report.saved = outcome.version != nil
            report.version = outcome.version.map(VersionSummary.init)
            report.previous = VersionSummary(outcome.previous)
        } catch is NothingToSave {
            report.previous = try DocumentKitError.located(at: bundle.relativePath) {
                VersionSummary(try DocumentBundle(contentsOf: bundle).headVersion)
            }
        }
        return report
    }

    /// Creates a project bundle at `bundle` holding the drafts of the export at `source`.
    /// Its name is `name`, else the export's `project_name`, else the bundle's file name
    /// without its extension. An existing `bundle` is refused (`cannotCreateOutput`)
    /// unless `replace`. With `dryRun`, nothing is written.
    @discardableResult
    public static func importDefaults(
        from source: URL, creating bundle: URL, type: any CodableDocument.Type, name: String? = nil,
        replace: Bool = false,
        dryRun: Bool = false, metadata: SaveMetadata
    ) throws -> Report {
        let defaults = try LegacyDefaults(contentsOf: source)
        try AtomicReplacement.refuseExisting(bundle, replace: replace)
        let projectName = name ?? defaults.projectName ?? bundle.deletingPathExtension().lastPathComponent
        var report = Report(
            source: source.relativePath, format: defaults.format, bundle: bundle.relativePath, newBundle: true,
            dryRun: dryRun, saved: false, draftsAdded: defaults.drafts.count, draftsAlreadyPresent: 0,
            blankDraftsSkipped: defaults.blankDrafts,
            ignoredKeys: ignoredKeys(of: defaults, namedProject: name == nil && defaults.projectName != nil))
        guard !dryRun else { return report }
        var json: [String: JSONValue] = ["name": .string(projectName)]
        if !defaults.drafts.isEmpty {
            json["drafts"] = .array(defaults.drafts.map { draftJSON($0, createdAt: metadata.created) })
        }
        let version = try BundleEdits.create(
            at: bundle, type: type, json: .object(json), metadata: metadata, replace: replace)
        report.saved = true
        report.version = VersionSummary(version)
        return report
    }

    /// Appends to the document's `drafts` those of `drafts` whose ids it does not have.
    private static func add(_ drafts: [LegacyDefaults.Draft], to json: inout JSONValue, createdAt: Date) throws -> (
        added: Int, present: Int
    ) {
        guard case .object(var members) = json else {
            throw DocumentKitError(.invalidDocument, "the document is not a JSON object")
        }
        var elements: [JSONValue] = []
        if case .array(let existing)? = members["drafts"] { elements = existing }
        let ids = Set(
            elements.compactMap { element -> UUID? in
                guard case .object(let draft) = element, case .string(let id)? = draft["id"] else { return nil }
                return UUID(uuidString: id)
            })
        let missing = drafts.filter { !ids.contains($0.id) }
        if !missing.isEmpty {
            elements += missing.map { draftJSON($0, createdAt: createdAt) }
            members["drafts"] = .array(elements)
            json = .object(members)
        }
        return (missing.count, drafts.count - missing.count)
    }

    private static func draftJSON(_ draft: LegacyDefaults.Draft, createdAt: Date) -> JSONValue {
        .object([
            "id": .string(draft.id.uuidString), "content": .string(draft.content),
            "createdAt": .string(DocumentDates.format(draft.createdAt ?? createdAt))
        ])
    }

    private static func ignoredKeys(of defaults: LegacyDefaults, namedProject: Bool) -> [String] {
        defaults.keys.filter {
            LegacyDefaults.Key(rawValue: $0) == nil || ($0 == LegacyDefaults.Key.projectName.rawValue && !namedProject)
        }
    }

    private struct NothingToSave: Error {}
}
