import Foundation

/// Checks a bundle against FORMAT.md and reports every problem it finds, located,
/// instead of stopping at the first. Only reads.
///
/// The quick check covers structure, manifest, versions, trees (in a format-3 bundle the
/// head's only: old trees are objects of its segments), object presence and sizes, and the
/// head document against its schema; `deep` also reads every object and checks its
/// SHA-256, and checks every version's tree and document.
public enum BundleValidator {
    /// Validates the bundle at `url`. Throws only when the file cannot be read at all
    /// (missing: `missingInput`); everything else is a finding.
    public static func validate(_ url: URL, deep: Bool = false, limits: BundleLimits = .default) throws
        -> ValidationReport
    {
        try validate(url, deep: deep, limits: limits, checkingSchema: true)
    }

    /// ``validate(_:deep:limits:)``, with the head document's typed read only when `checkingSchema`.
    package static func validate(
        _ url: URL, deep: Bool = false, limits: BundleLimits = .default,
        checkingSchema: Bool
    ) throws -> ValidationReport {
        _ = try SystemCall.status(url.path, failing: "cannot open", reportedAs: url.relativePath)
        var findings: [ValidationFinding] = []
        let bundle: DocumentBundle
        do {
            bundle = try DocumentBundle(contentsOf: url, limits: limits)
        } catch let error as DocumentKitError {
            findings.append(
                ValidationFinding(
                    code(forOpening: error), .error, error.message, entry: entryName(error.location),
                    remedy: error.remedy))
            return ValidationReport(file: url.relativePath, deep: deep, versions: 0, objects: 0, findings: findings)
        }
        var check = ValidationPass(bundle: bundle, deep: deep, checkingSchema: checkingSchema)
        check.run()
        // A history that could not be read (the pass reported why) counts nothing.
        return ValidationReport(
            file: url.relativePath, deep: deep, versions: check.counted.versions,
            objects: check.counted.objects, findings: check.findings)
    }

    private static func code(forOpening error: DocumentKitError) -> String {
        switch error.code {
        case .unsupportedFormat: "format.newer"
        default:
            if error.location == "manifest.json" || error.message.contains("manifest") {
                "manifest.invalid"
            } else if error.message.contains("mimetype") || error.message.contains("first entry") {
                "mimetype.invalid"
            } else {
                "container.invalid"
            }
        }
    }

    private static func entryName(_ location: String?) -> String? {
        guard let location else { return nil }
        if location.hasPrefix("entry '"), location.hasSuffix("'") { return String(location.dropFirst(7).dropLast()) }
        return location
    }
}
