import Foundation

/// Reads values and blobs out of a bundle's versions, as `docctl cat`, `get` and
/// `extract` do. Nothing here writes to the bundle.
public enum BundleReading {
    /// The document JSON of the version named `version` (default: the head), as stored.
    public static func documentData(of url: URL, version: String? = nil) throws -> Data {
        if version == nil { return try DocumentBundle.headDocument(of: url) }
        let bundle = try DocumentBundle(contentsOf: url)
        return try bundle.documentData(of: try version.map(bundle.version(named:)) ?? bundle.headVersion)
    }

    /// The JSON value at `path` in the version named `version` (default: the head).
    public static func value(at path: JSONPath, in url: URL, version: String? = nil) throws -> JSONValue {
        let json = try JSONValue.parse(try documentData(of: url, version: version))
        return try DocumentKitError.located(at: url.relativePath) { try json.value(at: path) }
    }

    /// Writes what `path` names to `output`: a blob's bytes if it is a blob reference,
    /// otherwise the value as JSON. Fails if `output` exists, unless `replace`.
    public static func extract(_ path: JSONPath, from url: URL, version: String? = nil, to output: URL, replace: Bool) throws -> UInt64 {
        let file = try AtomicReplacement(destination: output, followingLinks: false)
        var written: UInt64 = 0
        try extract(path, from: url, version: version) { block in
            try file.file.write(block)
            written += UInt64(block.count)
        }
        if replace { try file.commit(mode: AtomicReplacement.defaultMode()) } else { try file.commitWithoutReplacing(mode: AtomicReplacement.defaultMode()) }
        return written
    }

    /// Streams what `path` names through `body`: a blob's bytes, or the value as JSON.
    public static func extract(_ path: JSONPath, from url: URL, version: String? = nil, into body: (UnsafeRawBufferPointer) throws -> Void) throws {
        let bundle = try DocumentBundle(contentsOf: url)
        let selected = try version.map(bundle.version(named:)) ?? bundle.headVersion
        let json = try JSONValue.parse(try bundle.documentData(of: selected))
        let value = try DocumentKitError.located(at: url.relativePath) { try json.value(at: path) }
        if case .object(let members) = value, case .string(let hex)? = members["$blob"] {
            guard let digest = ObjectDigest(hex: hex) else {
                throw DocumentKitError(.malformedInput, "'\(hex)' is not a blob digest", path: url.relativePath, location: path.description)
            }
            try bundle.streamObject(digest, body)
        } else {
            var data = value.encoded(pretty: true)
            data.append(0x0A)
            try data.withUnsafeBytes { try body($0) }
        }
    }
}
