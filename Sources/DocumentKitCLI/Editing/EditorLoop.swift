import DocumentKit
import Foundation

/// The loop every edit in the user's text editor goes through (`docctl edit`,
/// `docctl pull --edit`): JSON written to a private scratch file, the editor run on it,
/// and the text saved, or reopened with the error at its top when it is refused, until it
/// is saved, left as it was, or abandoned. See `DocumentEditSession` for what each ending
/// does with the file.
struct EditorLoop {
    /// A save's refusal of the user's text, to show them in the reopened file.
    struct Refusal: Error {
        var error: DocumentKitError
    }

    var editor: EditorCommand
    var temporaryDirectory: URL
    /// The scratch file's name prefix: the program, what is edited and the bundle.
    var scratchPrefix: String
    /// What the header of a reopened file says is being edited.
    var subject: String

    /// Edits `original`, below `header` (`#` lines, as many as it needs, or none: a parse
    /// error's line is counted in the reopened file, whose header is always
    /// `EditorText.headerLineCount` lines). `save` saves the user's value, throwing `Refusal` for text to correct;
    /// `unchanged` is what text left as it was given means (`nil`: it is saved too).
    func run<Result>(
        original: JSONValue, header: [String] = [], unchanged: (() -> Result)?,
        save: (JSONValue) throws -> Result
    ) throws -> Result {
        precondition(header.allSatisfy { $0.hasPrefix("#") && !$0.contains("\n") })
        var originalText = header.isEmpty ? Data() : Data((header.joined(separator: "\n") + "\n").utf8)
        originalText.append(original.encoded(pretty: true))
        originalText.append(0x0A)
        let file = try ScratchFile(
            in: temporaryDirectory, prefix: scratchPrefix, suffix: ".json", contents: originalText)
        var written = originalText
        var refusal: DocumentKitError?
        while true {
            let termination: EditorCommand.Termination
            do {
                termination = try editor.edit(file.url)
            } catch let error as DocumentKitError {
                throw ending(error, file, keep: refusal != nil)
            }
            let text = EditorText(try file.read(limit: Int(BundleLimits.default.maxInMemoryObjectBytes)))
            if let failure = termination.failure(of: editor) {
                throw ending(
                    DocumentKitError(.cancelled, "edit aborted: \(failure); nothing was saved"), file,
                    keep: text.body != EditorText(originalText).body)
            }
            if text.isBlank {
                throw ending(
                    DocumentKitError(.cancelled, "edit aborted: the file was left empty; nothing was saved"), file,
                    keep: false)
            }
            if text.saved == written {
                // Refused text saved unfixed means the user gives up (reopening again
                // would only loop); the original, what `unchanged` says.
                if let refusal { throw ending(refusal, file, keep: true) }
                if let unchanged { return ending(unchanged(), file) }
            }
            do {
                let value: JSONValue
                do {
                    value = try JSONValue.parse(text.parsable)
                } catch let error as DocumentKitError {
                    throw Refusal(error: error)
                }
                if value == original, let unchanged { return ending(unchanged(), file) }
                return ending(try save(value), file)
            } catch let error as Refusal {
                refusal = error.error
                written = EditorText.reopening(text.body, after: error.error, editing: subject)
                try file.write(written)
            } catch let error as DocumentKitError {
                throw ending(error, file, keep: true)
            }
        }
    }

    /// `outcome`, once the file is removed.
    private func ending<Result>(_ outcome: Result, _ file: ScratchFile) -> Result {
        file.remove()
        return outcome
    }

    /// `error`, naming `file` when the user's text is kept there, else with `file` removed.
    private func ending(_ error: DocumentKitError, _ file: ScratchFile, keep: Bool) -> DocumentKitError {
        guard keep else {
            file.remove()
            return error
        }
        var error = error
        error.message += "; your text is in \(file.url.path)"
        return error
    }

    /// `docctl-edit-garden`: the program, the kind of edit, and the bundle's name as far as
    /// it is safe in a file name, so a kept file says where it came from.
    static func scratchPrefix(_ kind: String, for url: URL) -> String {
        let name = url.deletingPathExtension().lastPathComponent.unicodeScalars.map { scalar in
            scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || "-_.".unicodeScalars.contains(scalar))
                ? Character(scalar) : "-"
        }
        let stem = String(name.prefix(32))
        return "\(ProcessInfo.processInfo.processName)-\(kind)-\(stem.isEmpty ? "document" : stem)"
    }
}
