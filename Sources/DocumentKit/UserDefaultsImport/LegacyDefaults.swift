import Foundation

/// A UserDefaults domain exported to a file, read for what DocumentKit imports from it
/// (`docctl import --legacy-defaults`, `LegacyDefaultsImporter`).
///
/// The file is an XML or binary property list (what `defaults export DOMAIN FILE` writes
/// on macOS, and the `.plist` swift-corelibs-foundation keeps a domain in) or a JSON
/// object, recognised by its content, whatever its name. It is opened read-only and may
/// be at most `maximumBytes` long. The keys DocumentKit knows (`Key`):
///
/// | key | type | becomes |
/// |---|---|---|
/// | `draft_posts` | array of strings | one draft each, in order; blank strings are skipped and counted |
/// | `draft_post_dates` | dates (or date strings), one per draft | each draft's `createdAt`; else the import's time |
/// | `project_name` | string | the name of a project the import creates, unless the caller names it |
///
/// Every other key is listed in `unknownKeys` and otherwise left alone. A known key whose
/// value has the wrong type is an error (`malformedInput`) located at its key path, e.g.
/// `draft_posts[2]: expected a string, found 42 (a number)`.
///
/// Each draft's id is derived from its text (`draftID(content:occurrence:)`), so reading
/// the same export again gives the same drafts, and an import adds each only once.
///
/// ```swift
/// let defaults = try LegacyDefaults(contentsOf: URL(fileURLWithPath: "com.example.blog.plist"))
/// print(defaults.format, defaults.drafts.map(\.content), defaults.unknownKeys)
/// ```
public struct LegacyDefaults: Sendable, Equatable {
    /// The keys DocumentKit turns into content.
    public enum Key: String, CaseIterable, Sendable {
        case draftPosts = "draft_posts"
        case draftPostDates = "draft_post_dates"
        case projectName = "project_name"
    }

    /// How the file is written.
    public enum Format: String, Codable, Sendable {
        /// An XML property list (`<?xml …><plist>`).
        case xml
        /// A binary property list (`bplist00`).
        case binary
        /// A JSON object.
        case json
    }

    /// One draft of `draft_posts`.
    public struct Draft: Sendable, Equatable, Identifiable {
        /// Derived from the text and its occurrence (`LegacyDefaults.draftID`).
        public var id: UUID
        /// The text, exactly as the export holds it; never blank.
        public var content: String
        /// From `draft_post_dates`, to the whole second; `nil` when the export has no dates.
        public var createdAt: Date?
    }

    /// The most bytes an export may have: a defaults domain is settings, not documents,
    /// and the whole file is parsed in memory.
    public static let maximumBytes = 16 << 20

    /// How the file was written.
    public var format: Format
    /// The non-blank strings of `draft_posts`, in order.
    public var drafts: [Draft]
    /// How many strings of `draft_posts` were blank (empty or only white space) and skipped.
    public var blankDrafts: Int
    /// `project_name`, when it is there and not blank.
    public var projectName: String?
    /// Every key of the domain, sorted.
    public var keys: [String]

    /// The keys of the domain that are not a `Key`, sorted.
    public var unknownKeys: [String] {
        keys.filter { Key(rawValue: $0) == nil }
    }

    /// Reads the export at `url`. Errors name the file as `url.relativePath`: a missing
    /// file is `missingInput`, anything that is not an export of the kinds above, or has a
    /// known key of the wrong type, `malformedInput`.
    public init(contentsOf url: URL) throws {
        self = try DocumentKitError.located(at: url.relativePath) {
            try LegacyDefaults(data: try Self.readFile(url))
        }
    }

    /// Reads an export from its bytes; errors carry no file name.
    public init(data: Data) throws {
        let domain = try Self.parseDomain(data)
        format = domain.format
        keys = domain.keys
        projectName = try Self.projectName(domain.known[Key.projectName.rawValue])
        (drafts, blankDrafts) = try Self.drafts(
            domain.known[Key.draftPosts.rawValue], dates: domain.known[Key.draftPostDates.rawValue])
    }
}
