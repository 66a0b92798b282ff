import Foundation

/// The outcome of validating one bundle.
public struct ValidationReport: Codable, Equatable, Sendable {
    /// The bundle's path as given.
    public var file: String
    /// Whether no finding is an error.
    public var valid: Bool
    /// Whether every object's SHA-256 was checked.
    public var deep: Bool
    public var versions: Int
    public var objects: Int
    public var findings: [ValidationFinding]

    package init(file: String, deep: Bool, versions: Int, objects: Int, findings: [ValidationFinding]) {
        self.file = file
        self.deep = deep
        self.versions = versions
        self.objects = objects
        self.findings = findings
        self.valid = !findings.contains { $0.severity == .error }
    }
}
