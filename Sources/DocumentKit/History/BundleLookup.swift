import Foundation

/// Reads values and blobs out of a bundle's versions, as `docctl cat`, `get` and
/// `extract` do. Nothing here writes to the bundle.
///
/// Nothing is handed out that the bundle does not vouch for: a document is checked
/// against the digest its version's tree records, a blob against its own, and a value is
/// taken only from a document that parses. Each failure is `malformedInput` naming the file
/// and where in it.
public enum BundleLookup {
    /// The document JSON of the version named `version` (default: the head), as stored,
    /// once checked against the version's digest of it.
    public static func documentData(of url: URL, version: String? = nil) throws -> Data {
        if version == nil { return try DocumentBundle.headDocument(of: url) }
        let bundle = try DocumentBundle(contentsOf: url)
        return try bundle.documentData(of: try version.map(bundle.version(named:)) ?? bundle.headVersion)
    }

    /// The JSON value at `path` in the version named `version` (default: the head).
    public static func value(at path: JSONPath, in url: URL, version: String? = nil) throws -> JSONValue {
        let json = try document(of: url, version: version)
        return try DocumentKitError.located(at: url.relativePath) { try json.value(at: path) }
    }

    /// Every value `path` reaches in the version named `version` (default: the head), in
    /// document order: the one value of a path without `[*]`, and through `[*]` each element's
    /// (see ``JSONValue/values(at:)``). A path that reaches nothing is `notFound`.
    public static func values(at path: JSONPath, in url: URL, version: String? = nil) throws -> [JSONValue] {
        let json = try document(of: url, version: version)
        return try DocumentKitError.located(at: url.relativePath) { try json.values(at: path) }
    }

    /// The document of the version named `version` (default: the head, read by the fast
    /// path that skips the rest of the history), checked and parsed.
    private static func document(of url: URL, version: String?) throws -> JSONValue {
        guard version != nil else {
            return try parse(
                try DocumentBundle.headDocument(of: url), path: url.relativePath,
                location: "entry '\(BundleEntry.document)'")
        }
        let bundle = try DocumentBundle(contentsOf: url)
        return try document(of: try version.map(bundle.version(named:)) ?? bundle.headVersion, in: bundle)
    }

    /// Writes what `path` names to `output`: a blob's bytes if it is a blob reference,
    /// otherwise the value as JSON. Fails if `output` exists, unless `replace`; on any
    /// failure, a blob that does not match its digest included, `output` is left as it was.
    public static func extract(
        _ path: JSONPath, from url: URL, version: String? = nil, to output: URL, replace: Bool,
        dryRun: Bool = false
    ) throws -> UInt64 {
        if dryRun {
            // Everything a real extract checks (the output's place, the bytes against their
            // digest), with the bytes counted instead of written.
            try AtomicReplacement.refuseExisting(output, replace: replace)
            var count: UInt64 = 0
            try extract(path, from: url, version: version) { count += UInt64($0.count) }
            return count
        }
        // The blob is hashed as it is written: the file is committed only if it matched.
        return try AtomicReplacement.writeFile(at: output, replace: replace) { file in
            try extract(path, from: url, version: version, checkingFirst: false) { try file.write($0) }
        }
    }

    /// Streams what `path` names through `body`: a blob's bytes, or the value as JSON.
    /// `body` is called only once every byte is known to be the bundle's (see
    /// `DocumentBundle.streamCheckedObject(_:_:)`), so nothing reaches it on a failure.
    public static func extract(
        _ path: JSONPath, from url: URL, version: String? = nil, into body: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        try extract(path, from: url, version: version, checkingFirst: true, body)
    }

    private static func extract(
        _ path: JSONPath, from url: URL, version: String?, checkingFirst: Bool,
        _ body: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        let bundle = try DocumentBundle(contentsOf: url)
        let json = try document(of: try version.map(bundle.version(named:)) ?? bundle.headVersion, in: bundle)
        let value = try DocumentKitError.located(at: url.relativePath) { try json.value(at: path) }
        if case .object(let members) = value, case .string(let hex)? = members["$blob"] {
            guard let digest = ObjectDigest(hex: hex) else {
                throw DocumentKitError(
                    .malformedInput, "'\(hex)' is not a blob digest", path: url.relativePath, location: path.description
                )
            }
            if checkingFirst {
                try bundle.streamCheckedObject(digest, body)
            } else {
                try bundle.streamObject(digest, body)
            }
        } else {
            var data = value.encoded(pretty: true)
            data.append(0x0A)
            try data.withUnsafeBytes { try body($0) }
        }
    }

    /// `version`'s document, checked and parsed.
    private static func document(of version: BundleVersion, in bundle: DocumentBundle) throws -> JSONValue {
        try parse(
            try bundle.documentDataForParsing(of: version), path: bundle.url.relativePath,
            location: bundle.documentLocation(of: version))
    }

    /// Parses a document, naming the file and where in it when it is not JSON: a bundle
    /// built to be consistent can still hold text that no writer of it would have saved.
    private static func parse(_ data: Data, path: String, location: String) throws -> JSONValue {
        do {
            return try JSONValue.parse(data)
        } catch let error as DocumentKitError {
            throw DocumentKitError(error.code, error.message, path: path, location: error.location ?? location)
        }
    }
}
