import DocumentKit
import Foundation

/// Who a version is attributed to when the caller does not say.
///
/// In order: the author the caller names (`--author`); else the user's configured
/// author, `author.name` in their ``UserSettings`` written `Name <email>` when
/// `author.email` is set too, as git writes authors; else the login name.
public enum Authorship {
    /// The configured author, else the login name. Never fails: when the preferences
    /// cannot be read, the login name. ``SaveMetadata`` uses it when given no author.
    public static func defaultAuthor() -> String {
        (try? configuredAuthor()).flatMap { $0 } ?? loginName()
    }

    /// `explicit` when given, else the configured author, else the login name. Unlike
    /// ``defaultAuthor()`` it reports preferences it cannot read (a malformed file, a
    /// name that is not a string), so a misconfiguration is not silently replaced by the
    /// login name; docctl uses it.
    public static func author(_ explicit: String?, settings: UserSettings? = nil) throws -> String {
        if let explicit { return explicit }
        return try configuredAuthor(settings: settings) ?? loginName()
    }

    /// The author the user configured in `settings` (by default their preferences file):
    /// `Name <email>`, the name alone, or the login name with the email when only the
    /// email is set; `nil` when neither is. Blank values count as unset.
    public static func configuredAuthor(settings: UserSettings? = nil) throws -> String? {
        let settings = try settings ?? UserSettings.snapshot.get()
        let name = try settings.authorName.get().flatMap(nonBlank)
        let email = try settings.authorEmail.get().flatMap(nonBlank)
        switch (name, email) {
        case (nil, nil): return nil
        case (let name?, nil): return name
        case (let name, let email?): return "\(name ?? loginName()) <\(email)>"
        }
    }

    /// The login name of the user running the process, or `unknown`.
    public static func loginName() -> String {
        SystemCall.user().login ?? ProcessInfo.processInfo.environment["USER"] ?? "unknown"
    }

    private static func nonBlank(_ text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? nil : trimmed
    }
}
