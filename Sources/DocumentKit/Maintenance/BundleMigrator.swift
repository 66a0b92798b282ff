import Foundation

/// Upgrades a bundle to its document type's current schema, explicitly: `docctl migrate`.
///
/// Reading an older bundle already migrates it in memory, and any edit saves it migrated;
/// this saves the migration alone, as one new version that records the current schema,
/// and says which stages ran. The versions before it stay as they were.
///
/// ```swift
/// let report = try BundleMigrator.migrate(url, dryRun: true, author: "Ada")
/// print(report.from, report.to, report.stages.map(\.id))
/// ```
public enum BundleMigrator {
    /// What a migration did, or would do.
    public struct Report: Codable, Equatable, Sendable {
        /// One stage, as it ran (or would run).
        public struct Stage: Codable, Equatable, Sendable {
            /// The stage's stable id.
            public var id: String
            /// `lightweight` or `custom`.
            public var kind: MigrationStage.Kind
            /// The schema it read.
            public var from: String
            /// The schema it wrote.
            public var to: String

            package init(_ stage: MigrationStage) {
                id = stage.id
                kind = stage.kind
                from = stage.fromVersion.versionIdentifier.description
                to = stage.toVersion.versionIdentifier.description
            }
        }

        /// Whether nothing was to be written.
        public var dryRun: Bool
        /// The schema the head was written with.
        public var from: String
        /// The schema it is migrated to: this build's.
        public var to: String
        /// The stages, in the order they ran; empty when the head was current.
        public var stages: [Stage]
        /// Whether a version was saved.
        public var saved: Bool
        /// The version saved, if one was.
        public var version: VersionSummary?
        /// The head before the migration.
        public var previous: VersionSummary
    }

    /// Migrates the head of the bundle at `url` to the current schema of its document type
    /// and saves it as one new version (message by default `Migrate from schema 1.0.0 to
    /// 3.0.0`). With `dryRun`, or when the head is current already, nothing is written. A
    /// head of a newer schema than this build knows is refused (`unsupportedFormat`).
    public static func migrate(
        _ url: URL, dryRun: Bool = false, author: String, message: String? = nil,
        created: Date = DocumentDates.now(), compression: ObjectCompression = .zstd
    ) throws -> Report {
        try DocumentKitError.located(at: url.relativePath) {
            try BundleSaver.locked(at: url) { saver in
                let bundle = saver.bundle
                let type = try DocumentKitConfiguration.current.documentType(of: bundle)
                let head = bundle.headVersion
                let migration = try type.migration(
                    from: head.schema, to: try DocumentKitConfiguration.current.writtenSchema(of: type, over: head))
                var report = Report(
                    dryRun: dryRun, from: migration.from.description, to: migration.to.description,
                    stages: migration.stages.map(Report.Stage.init), saved: false, version: nil,
                    previous: VersionSummary(head))
                guard !dryRun, migration.from != migration.to else { return report }
                let json = try BundleEdits.headDocumentJSON(of: bundle, as: type, now: created)
                let metadata = SaveMetadata(
                    author: author, message: message ?? "Migrate from schema \(migration.from) to \(migration.to)",
                    created: created, compression: compression)
                let content = try SaveContent.typed(
                    type, text: json, base: bundle, pending: PendingObjects(base: bundle), created: created)
                let version = try saver.save(content, metadata: metadata)
                report.saved = version != nil
                report.version = version.map(VersionSummary.init)
                return report
            }
        }
    }
}
