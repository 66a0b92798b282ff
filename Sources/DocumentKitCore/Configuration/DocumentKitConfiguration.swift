import Foundation

/// The choices DocumentKit leaves to the program, as one value: where "now" comes from,
/// how long a save waits for another writer's lock, which document types it can edit, the
/// schema edits write, and whether work is counted. DocumentKit reads no environment
/// variable and no process-wide setting; a program makes a configuration at its edge (docctl
/// from its environment) and runs its work under it, as swift-format takes a
/// `Configuration`:
///
/// ```swift
/// var configuration = DocumentKitConfiguration()
/// configuration.documentTypes = [Project.self]
/// configuration.fixedNow = Date(timeIntervalSince1970: 1_767_225_600)
/// try configuration.apply { try BundleEdits.set(.string("Renamed"), at: path, in: url) }
/// ```
///
/// Two configurations can be in force at once in one process, each in its own task or
/// thread (`apply(_:)`); work DocumentKit moves to threads of its own carries the
/// configuration it was started under.
public struct DocumentKitConfiguration: Sendable {
    /// The time every "now" is, when set: docctl sets it from `SOURCE_DATE_EPOCH` (the
    /// reproducible-builds convention), so that replayed edits give identical bytes. `nil`,
    /// the default, reads the system clock.
    public var fixedNow: Date?

    /// How long a save, or a write of a bundle's state, waits for another writer's lock, in
    /// seconds: as long as it takes (`nil`, the default); past it the save fails with
    /// `conflict`. docctl sets it from `DOCUMENTKIT_LOCK_TIMEOUT`.
    public var lockTimeout: TimeInterval?

    /// What a save calls, once, when it has waited a second for another writer's lock, with
    /// the bundle as the caller named it and the lock's holder when the system tells
    /// (``LockHolder``). docctl prints who holds the lock and since when. `nil` by default.
    public var lockWaitHandler: (@Sendable (_ bundle: String, _ holder: LockHolder?) -> Void)?

    /// An older schema for edits to write (see ``WriteSchema``); `nil`, the default, writes
    /// each type's current schema.
    public var writeSchema: WriteSchema?

    /// Counts the work done under this configuration (``WorkMeter``); `nil`, the default,
    /// counts nothing.
    public var workMeter: WorkMeter?

    /// The folder for bytes set aside while a command runs (an HTML export's pages), which
    /// nothing names and nothing leaves behind. docctl sets it from `TMPDIR`; `/tmp` by
    /// default.
    public var temporaryFolder = "/tmp"

    /// The document types a program can edit generically, by content type; DocumentKit's
    /// `documentTypes` reads and sets them as `CodableDocument` types.
    package var registeredTypes: [any RegisteredDocumentType.Type] = []

    /// The defaults: the system clock, waiting for locks as long as they take, no document
    /// type, each type's current schema, nothing counted.
    public init() {}
}

extension DocumentKitConfiguration {
    /// An older schema for edits to write, as the program was told it: `version` as given,
    /// and `setting`, the name of what gave it, for messages.
    ///
    /// It exists to make sample and test bundles of old schemas reproducibly
    /// (`SampleDocs/regenerate.sh`, through docctl's `DOCUMENTKIT_WRITE_SCHEMA`): edits then
    /// check and encode the document with that version's model and record that version, as
    /// a build of that time did. An edit of a head newer than it is refused, since nothing
    /// migrates a document back. Only the edits of `BundleEdits` (every docctl command that
    /// saves) honour it; `DocumentController` always writes the current schema. An empty
    /// version writes the current schema.
    public struct WriteSchema: Sendable, Equatable {
        public var version: String
        public var setting: String
        public init(version: String, setting: String) {
            self.version = version
            self.setting = setting
        }
    }
}
