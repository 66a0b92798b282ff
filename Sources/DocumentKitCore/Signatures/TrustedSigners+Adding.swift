import Foundation

extension TrustedSigners {
    /// What ``trust(_:name:inFileAt:dryRun:)`` did (or would do).
    public enum Addition: Equatable, Sendable {
        /// The line was added (or, for a dry run, would be).
        case added
        /// The key was trusted already, under this name (`nil`: a line without one); the
        /// file was left as it was.
        case alreadyTrusted(name: String?)
    }

    /// The key (and name, when it has one) that `docctl key trust` is given: a key's line
    /// as `docctl key show` prints it, or a trusted-signers line, either as the argument
    /// itself (it starts with `documentkit-ed25519 `) or in the file it names, one line with
    /// or without its final line feed.
    public static func signer(fromArgument argument: String) throws -> (key: VerifyingKey, name: String?) {
        let isLine = argument.hasPrefix(VerifyingKey.kind + " ")
        let text =
            isLine
            ? argument
            : String(
                decoding: try OpenFile.forReading(URL(fileURLWithPath: argument)).readPrefix(1 << 16), as: UTF8.self)
        let path = isLine ? "'\(argument)'" : argument
        let line = text.hasSuffix("\n") ? String(text.dropLast()) : text
        guard !line.contains("\n") else {
            throw DocumentKitError(
                .malformedInput, "holds more than one line; give one key", path: path, remedy: .givePrintedKey)
        }
        return try signer(in: line, path: path, location: nil)
    }

    /// Adds the line `NAME documentkit-ed25519 KEY` for `key` to the trusted-signers file
    /// at `url`, creating it (and its folders, private to the user) when missing. The file
    /// is replaced whole, atomically, keeping its mode; a file with a line that is not a
    /// signer's is refused, naming the line, and nothing is written. A key already trusted
    /// is not added twice. With `dryRun`, everything is checked and nothing written.
    public static func trust(_ key: VerifyingKey, name: String, inFileAt url: URL, dryRun: Bool = false) throws
        -> Addition
    {
        guard !name.isEmpty, !name.hasPrefix("#"),
            !name.contains(where: { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" }),
            name != VerifyingKey.kind
        else {
            throw DocumentKitError(
                .usage,
                """
                the name '\(name)' cannot be written in a trusted-signers line: give one word, without spaces, not \
                starting with '#'
                """
            )
        }
        let status = SystemCall.status(url.path)
        var text =
            status == nil ? "" : String(decoding: try OpenFile.forReading(url).readPrefix(1 << 20), as: UTF8.self)
        let existing = try TrustedSigners(text: text, path: url.relativePath)
        if existing.trusts(key) { return .alreadyTrusted(name: existing.name(of: key)) }
        if dryRun { return .added }
        try makePrivateFolders(above: url)
        if !text.isEmpty, !text.hasSuffix("\n") { text += "\n" }
        text += "\(name) \(key)\n"
        let replacement = try AtomicReplacement(destination: url)
        try replacement.file.write(Data(text.utf8))
        try replacement.commit(
            mode: status.map { $0.st_mode & 0o7777 } ?? AtomicReplacement.defaultMode(),
            owner: status.map { ($0.st_uid, $0.st_gid) })
        return .added
    }

    /// Creates the missing folders above `url`, private to the user (0700), as the settings
    /// folder is made.
    private static func makePrivateFolders(above url: URL) throws {
        let folder = url.deletingLastPathComponent()
        guard SystemCall.status(folder.path) == nil else { return }
        try makePrivateFolders(above: folder)
        // EEXIST: another process made it meanwhile, which is as good.
        guard SystemCall.makeFolder(folder.path, mode: 0o700) || errno == EEXIST else {
            throw DocumentKitError.system("cannot create the folder", path: folder.path, errno: errno)
        }
    }
}
