import Foundation

/// Which versions a log lists, as `git log --author --grep --since --until` choose them:
/// a version is listed when every criterion given holds.
///
/// ```swift
/// let filter = VersionFilter(author: try VersionFilter.pattern("Ada"), since: try VersionFilter.time("2.weeks.ago"))
/// let recent = try BundleSummary.log(of: url, matching: filter)
/// ```
public struct VersionFilter {
    /// A regular expression the version's author must match somewhere (`Ada`, `@example\.org>$`).
    public var author: NSRegularExpression?
    /// A regular expression the version's message must match somewhere.
    public var message: NSRegularExpression?
    /// The earliest time a listed version was saved at, included.
    public var since: Date?
    /// The latest time a listed version was saved at, included.
    public var until: Date?

    public init(
        author: NSRegularExpression? = nil, message: NSRegularExpression? = nil, since: Date? = nil, until: Date? = nil
    ) {
        self.author = author
        self.message = message
        self.since = since
        self.until = until
    }

    /// Whether no criterion is given, so that every version is listed.
    public var isEmpty: Bool { author == nil && message == nil && since == nil && until == nil }

    /// Whether `version` meets every criterion.
    public func matches(_ version: BundleVersion) -> Bool {
        if let since, version.created < since { return false }
        if let until, version.created > until { return false }
        if let author, !Self.contains(author, in: version.author) { return false }
        if let message, !Self.contains(message, in: version.message) { return false }
        return true
    }

    /// `text` as a regular expression (ICU syntax, as `NSRegularExpression` reads it),
    /// matched anywhere in the text, case-sensitively unless `ignoringCase`. A pattern that
    /// does not compile is a `usage` error.
    public static func pattern(_ text: String, ignoringCase: Bool = false) throws -> NSRegularExpression {
        do {
            return try NSRegularExpression(pattern: text, options: ignoringCase ? [.caseInsensitive] : [])
        } catch {
            throw DocumentKitError(
                .usage, "not a regular expression (put \\ before ( [ { * + ? | ^ $ . \\ to match them as they are)")
        }
    }

    private static func contains(_ pattern: NSRegularExpression, in text: String) -> Bool {
        pattern.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }
}
