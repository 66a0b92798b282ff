import Foundation

/// One problem a validation found, with a stable code and where it is.
public struct ValidationFinding: Codable, Equatable, Sendable, CustomStringConvertible {
    /// How bad a finding is.
    public enum Severity: String, Codable, Sendable {
        /// The bundle is damaged or invalid: `docctl validate` exits 1.
        case error
        /// Unusual but readable.
        case warning
    }

    /// A stable identifier such as `object.digest-mismatch`; FORMAT.md lists them all.
    public var code: String
    public var severity: Severity
    public var message: String
    /// The zip entry concerned.
    public var entry: String?
    /// The version number concerned.
    public var version: Int?
    /// The JSON path inside the document concerned.
    public var path: String?
    /// What gets past the finding, for the program to say in its own words (docctl adds
    /// `'docctl pack' writes a copy without superseded bytes`); not part of the JSON.
    public var remedy: DocumentKitError.Remedy?

    private enum CodingKeys: String, CodingKey {
        case code, severity, message, entry, version, path
    }

    public init(
        _ code: String, _ severity: Severity = .error, _ message: String, entry: String? = nil, version: Int? = nil,
        path: String? = nil,
        remedy: DocumentKitError.Remedy? = nil
    ) {
        self.remedy = remedy
        self.code = code
        self.severity = severity
        self.message = message
        self.entry = entry
        self.version = version
        self.path = path
    }

    /// `error object.missing: entry 'objects/ab/…': version 3: message`, on one line
    /// (control characters escaped).
    public var description: String {
        var parts = ["\(severity.rawValue) \(code)"]
        if let entry { parts.append("entry '\(entry)'") }
        if let version { parts.append("version \(version)") }
        if let path { parts.append(path) }
        parts.append(message)
        return OneLineText.escaping(parts.joined(separator: ": "))
    }
}
