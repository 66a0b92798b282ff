import DocumentKit
import Foundation

/// Edits a bundle's document, or the value at one path in it, in the user's text editor,
/// the way `git commit`, `crontab -e` and `kubectl edit` do, and saves the result as one
/// new version. `docctl edit` is this.
///
/// ```swift
/// let session = DocumentEditSession(bundle: url, path: try JSONPath(parsing: "tasks[2]"), message: "Reword")
/// let outcome = try session.run()    // outcome.version is nil when nothing changed
/// ```
///
/// `run()` reads the head version, writes the value as pretty canonical JSON to a private
/// file (0600) in `temporaryDirectory` named after the bundle, runs `editor` on it, and
/// when the editor exits:
///
/// - with the text as it was (or equal as JSON): saves nothing, returns no version;
/// - with valid text: saves it as one version, through the same checks as every edit
///   (schema, rules, blob references), based on the head read at the start: if another
///   writer saved since, nothing is saved and the error is a `conflict` naming both versions;
/// - with text that is not JSON, or that the schema or rules refuse: reopens the editor on
///   the user's text with the error in `#` lines at the top (see `EditorText`), until the
///   text is valid, unchanged from the original, or abandoned;
/// - with an error status, killed, or with the file emptied: a `cancelled` error.
///
/// The file is removed when the session saves or changes nothing. Whenever it ends without
/// saving text the user changed (abandoned, refused and saved again unfixed, a conflict,
/// any failure to save) the file is kept, untouched since the editor left it, and the
/// error's message ends with `; your text is in PATH`. The bundle's lock is held only while
/// saving, never while the editor is open.
public struct DocumentEditSession {
    /// The bundle.
    public var url: URL
    /// What to edit: the whole document (the empty path) or the value at this path.
    public var path: JSONPath
    /// Why: recorded in the version.
    public var message: String
    /// Who: recorded in the version (`nil`: `Authorship.defaultAuthor()`).
    public var author: String?
    /// The editor to run.
    public var editor: EditorCommand
    /// Where the file the editor works on is made.
    public var temporaryDirectory: URL

    /// A session editing the value at `path` in the bundle at `url`; nothing happens until `run()`.
    public init(
        bundle url: URL, path: JSONPath = JSONPath(components: []), message: String, author: String? = nil,
        editor: EditorCommand = .preferred(), temporaryDirectory: URL = DocumentEditSession.defaultTemporaryDirectory
    ) {
        self.url = url
        self.path = path
        self.message = message
        self.author = author
        self.editor = editor
        self.temporaryDirectory = temporaryDirectory
    }

    /// `$TMPDIR`, else `/tmp`.
    public static var defaultTemporaryDirectory: URL {
        URL(fileURLWithPath: temporaryFolder(from: ProcessInfo.processInfo.environment), isDirectory: true)
    }

    /// `TMPDIR` of `environment` when set and not empty, else `/tmp`.
    static func temporaryFolder(from environment: [String: String]) -> String {
        let variable = environment["TMPDIR"] ?? ""
        return variable.isEmpty ? "/tmp" : variable
    }

    /// Runs the edit to its end (see the type's description). Returns what was saved; throws
    /// `cancelled` when the user abandoned the edit, the refusal when they left refused text
    /// unfixed, `conflict` when the bundle changed meanwhile, and any error of reading the
    /// bundle or saving (a bundle this build cannot edit and a path not in the document
    /// are refused before the editor opens).
    public func run() throws -> BundleEdits.Outcome {
        try DocumentKitError.located(at: url.relativePath) { try runLocated() }
    }

    private func runLocated() throws -> BundleEdits.Outcome {
        let (base, original) = try readHead()
        let loop = EditorLoop(
            editor: editor, temporaryDirectory: temporaryDirectory,
            scratchPrefix: EditorLoop.scratchPrefix("edit", for: url), subject: subject)
        return try loop.run(original: original, unchanged: { BundleEdits.Outcome(version: nil, previous: base) }) {
            value in
            try save(value, basedOn: base)
        }
    }

    /// The head version and the value at `path` in it, in the current schema (an older
    /// head is migrated in memory, as every edit does); the bundle is closed again before
    /// the editor runs. A bundle of a type this build does not know is edited as it is
    /// stored, as schema-less JSON.
    private func readHead() throws -> (BundleVersion, JSONValue) {
        let bundle = try DocumentBundle(contentsOf: url)
        let text =
            try DocumentKitConfiguration.current.documentType(for: bundle.contentTypeIdentifier).map { type in
                try BundleEdits.headDocumentJSON(of: bundle, as: type, now: DocumentDates.now())
            } ?? bundle.documentDataForParsing(of: bundle.headVersion)
        let value = try JSONValue.parse(text).value(at: path)
        return (bundle.headVersion, value)
    }

    /// Saves `value` at `path` as one version, if the head is still `base`. The document
    /// type's schema and rules refuse a value with `invalidDocument`, and only they do:
    /// that is a `Refusal`, to show the user; anything else concerns the bundle.
    private func save(_ value: JSONValue, basedOn base: BundleVersion) throws -> BundleEdits.Outcome {
        do {
            var metadata = SaveMetadata(
                author: author ?? Authorship.defaultAuthor(), message: message, compression: .defaultForSaves(),
                signingKey: try SigningKey.forSaves())
            metadata.formatVersion = BundleLayoutSetting.forSaves()
            return try BundleEdits.apply(at: url, expectedHead: base.id, metadata: metadata) { _ in
                .set(path, value)
            }
        } catch let error as DocumentKitError where error.code == .invalidDocument {
            throw EditorLoop.Refusal(error: error)
        }
    }

    /// What the header of a reopened file says is being edited.
    private var subject: String {
        path.components.isEmpty ? url.relativePath : "\(path) in \(url.relativePath)"
    }
}
