import Foundation

/// The keys a user trusts, with the names to show for them: a text file in the spirit of
/// ssh's `allowed_signers`, one signer per line, `NAME documentkit-ed25519 BASE64`, or the
/// key alone, `documentkit-ed25519 BASE64`, as `docctl key show` prints it (a signer
/// without a name, shown by its fingerprint). Empty lines and lines starting with `#` are
/// skipped.
///
/// ```
/// # people whose versions I accept
/// ada@example.org documentkit-ed25519 R4n0…
/// ```
///
/// Each line has one spelling (FORMAT.md §5.4): words separated by one space, nothing
/// before the first or after the last, lines ending in a line feed alone. A line with a
/// tab, a carriage return or a second space is refused with its number, rather than read
/// as some other spelling of a key, so that every reader of the file trusts the same keys.
public struct TrustedSigners: Sendable {
    /// Every key trusted, with its name when the file gives one.
    private var names: [VerifyingKey: String?] = [:]

    /// No signers.
    public init() {}

    /// The signers `text` lists; `path` names the file in errors, with the line.
    public init(text: String, path: String) throws {
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            guard !line.isEmpty, !line.hasPrefix("#") else { continue }
            let (key, name) = try Self.signer(in: String(line), path: path, location: "line \(number + 1)")
            names[key] = .some(name)
        }
    }

    /// The signers in the file at `url`.
    public init(contentsOf url: URL) throws {
        let data = try OpenFile.forReading(url).readPrefix(1 << 20)
        try self.init(text: String(decoding: data, as: UTF8.self), path: url.relativePath)
    }

    /// The key and name of one signer's line, `NAME documentkit-ed25519 BASE64` or the key
    /// alone; what ``init(text:path:)`` reads and `docctl key trust` checks before it adds
    /// a line. Throws `malformedInput` naming `path` and `location`.
    public static func signer(in line: String, path: String, location: String?) throws -> (
        key: VerifyingKey, name: String?
    ) {
        let problem: String? =
            if line.contains("\r") {
                "ends in a carriage return (CRLF); lines end in a line feed alone"
            } else if line.contains("\t") {
                "holds a tab; words are separated by one space"
            } else if line.hasPrefix(" ") || line.hasSuffix(" ") || line.contains("  ") {
                "has a space before, after or between its words that is not one space"
            } else {
                nil
            }
        let words = line.split(separator: " ", omittingEmptySubsequences: false)
        if problem == nil, words.count == 2, let key = VerifyingKey(text: line) { return (key, nil) }
        if problem == nil, words.count == 3, let key = VerifyingKey(text: words[1...].joined(separator: " ")) {
            return (key, String(words[0]))
        }
        throw DocumentKitError(
            .malformedInput,
            "\(problem.map { $0 + ": " } ?? "")is not 'NAME documentkit-ed25519 KEY', one space between words",
            path: path, location: location, remedy: .givePrintedKey)
    }

    /// Trusts `key` too, under `name`, unless it is already trusted (its own line's name
    /// is kept).
    public mutating func add(_ key: VerifyingKey, name: String) {
        if names[key] == nil { names[key] = .some(name) }
    }

    /// Whether `key` is trusted.
    public func trusts(_ key: VerifyingKey) -> Bool { names[key] != nil }

    /// The name the file gives `key`; `nil` when it is not trusted or has no name.
    public func name(of key: VerifyingKey) -> String? { names[key] ?? nil }

    /// How many signers the file lists.
    public var count: Int { names.count }
}
