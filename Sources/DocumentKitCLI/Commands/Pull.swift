import ArgumentParser
import DocumentKit
import Foundation

extension DocumentTool {
    struct Pull: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "pull",
            abstract: "Bring another copy's versions into a bundle, merging when both were edited.",
            discussion: """
                OTHER is another copy of the same project (made by copying the file, or by pack). \
                Its versions and blobs that BUNDLE lacks are added with their ids unchanged. When \
                OTHER's history holds BUNDLE's head (BUNDLE has nothing new), OTHER's head becomes \
                the head (fast-forward); when both were edited, one more version merges the two heads \
                against their newest common version: changes made on one side are taken, records \
                of both sides kept, and a value both sides changed differently, or a merge that \
                breaks a rule of the document, is a conflict. Conflicts are listed and nothing is \
                written (exit status 1) unless resolved: --ours or --theirs for all, --resolve \
                PATH=ours|theirs for one, or --edit to write the merge in your editor. OTHER is \
                only read, and checked whole before anything is taken from it. Copies of two \
                different projects (no common version) are refused. OTHER may also be a remote \
                (a folder, or s3://BUCKET/PREFIX, as for push): its copy of the project is read \
                and checked first, fetching only the files BUNDLE lacks.
                """)

        @OptionGroup var target: BundleArgument
        @Argument(
            help:
                """
                The other copy to pull from: a bundle, or a remote (a folder, or s3://BUCKET/PREFIX; default: the \
                bundle's remote.default, which clone sets).
                """,
            completion: .file())
        var other = ""
        @Flag(help: "Resolve every conflict with this bundle's value.")
        var ours = false
        @Flag(help: "Resolve every conflict with the other copy's value.")
        var theirs = false
        @Option(
            name: .customLong("resolve"),
            help: ArgumentHelp(
                """
                Resolve the conflicts at PATH with one side's value (repeatable); PATH as listed, or as for get: \
                tasks[0].title, tasks[*].title, tasks[0]. One that names no conflict is an error.
                """,
                valueName: "PATH=ours|theirs"))
        var resolutions: [String] = []
        @Flag(
            help:
                """
                Write the merge in $VISUAL or $EDITOR, starting from it with this bundle's value at each conflict, \
                and each conflict's three values above it.
                """
        )
        var edit = false
        @Flag(help: "Take no version that is not signed by a trusted key (see 'verify').")
        var requireSigned = false
        @Option(
            help: ArgumentHelp("The trusted signers file for --require-signed.", valueName: "FILE"), completion: .file()
        )
        var trusted: String?
        @OptionGroup var metadata: EditOptions
        @OptionGroup var remoteOptions: RemoteOptions
        @OptionGroup var output: OutputOptions

        func validate() throws {
            if ours && theirs { throw ValidationError("--ours and --theirs cannot be used together") }
            if edit && (ours || theirs || !resolutions.isEmpty) {
                throw ValidationError("--edit cannot be used with --ours, --theirs or --resolve")
            }
            if trusted != nil && !requireSigned { throw ValidationError("--trusted is for --require-signed") }
        }

        mutating func run() throws {
            other = try RemoteLocation.remembered(other, for: target.url)
            var resolution = BundlePuller.Resolution(all: ours ? .ours : theirs ? .theirs : nil)
            for text in resolutions {
                guard let equals = text.lastIndex(of: "="),
                    let side = JSONMerge.Side(rawValue: String(text[text.index(after: equals)...]))
                else {
                    throw ValidationError("--resolve takes PATH=ours or PATH=theirs, not '\(text)'")
                }
                resolution.paths[String(text[..<equals])] = side
            }
            let save = try metadata.metadata(defaultMessage: "")
            var signers: TrustedSigners?
            if requireSigned {
                guard let named = try TrustedSigners.named(trusted) else {
                    throw ValidationError(
                        """
                        --require-signed needs trusted signers: give --trusted FILE, or write \
                        \(try TrustedSigners.location().path)
                        """
                    )
                }
                signers = named
            }
            let (outcome, retries) = try withOtherCopy { copy in
                var outcome = try BundlePuller.pull(
                    into: target.url, from: copy, metadata: save, resolution: resolution,
                    requiringSignaturesFrom: signers, otherName: otherName)
                if edit, !outcome.conflicts.isEmpty {
                    outcome = try editMerge(outcome, from: copy, metadata: save, signers: signers)
                }
                return outcome
            }
            var report = PullReport(
                outcome, bundle: target.bundle, other: other, otherIsRemote: RemoteLocation.isRemote(other),
                dryRun: metadata.dryRun)
            report.retries = retries
            try report.print(json: output.json)
        }

        /// What a merge's message calls OTHER: a remote as the user wrote it (its copy is a
        /// temporary file); a bundle by its file name.
        private var otherName: String? {
            RemoteLocation.isRemote(other) ? other : nil
        }

        /// Runs `body` with OTHER: the bundle itself, or a remote's copy of the project,
        /// fetched beside BUNDLE for the pull. Errors about that copy name the remote.
        /// Returns what `body` did and, for a remote, how many requests were tried again.
        private func withOtherCopy<T>(_ body: (URL) throws -> T) throws -> (T, retries: Int?) {
            guard RemoteLocation.isRemote(other) else { return (try body(URL(fileURLWithPath: other)), nil) }
            let connection = remoteOptions.connection()
            let store = try RemoteLocation(other).open(connection)
            do {
                let result = try RemoteFetcher.withRemoteCopy(of: target.url, from: store, jobs: connection.transfers) {
                    copy in
                    do {
                        return try body(copy)
                    } catch var error as DocumentKitError
                        where error.path == copy.relativePath || error.path == copy.path
                    {
                        error.path = other
                        throw error
                    }
                }
                return (result, store.retries)
            } catch var error as DocumentKitError where error.code == .unavailable {
                // The bundle is untouched until the remote's copy is whole.
                error.message += "; run pull again"
                throw error
            }
        }

        /// Opens the merge, conflicts holding this bundle's values, in the editor, and pulls
        /// again with what the user wrote, reopening it while the document type refuses it.
        private func editMerge(
            _ outcome: BundlePuller.Outcome, from copy: URL, metadata: SaveMetadata, signers: TrustedSigners?
        ) throws -> BundlePuller.Outcome {
            // Each conflict with all three values, as the conflict list prints them: the
            // document below holds only ours, and the choice needs theirs and the base.
            let header =
                [
                    """
                    # Merging \(other) into \(target.bundle): \(outcome.conflicts.count) \
                    conflict\(outcome.conflicts.count == 1 ? "" : "s"):
                    """
                ]
                + outcome.conflicts.map {
                    "#   " + PullReport.line(for: $0).split(whereSeparator: \.isNewline).joined(separator: " ")
                } + [
                    "# Each holds this bundle's value (ours) below.",
                    "# Write the merge you want and save, or empty the file to abort.",
                    "# Lines starting with '#' at the top are ignored."
                ]
            let loop = EditorLoop(
                editor: .preferred(), temporaryDirectory: DocumentEditSession.defaultTemporaryDirectory,
                scratchPrefix: EditorLoop.scratchPrefix("pull", for: target.url),
                subject: "the merge of \(other) into \(target.bundle)")
            let original = try JSONValue.parse(outcome.mergedText ?? Data("{}".utf8))
            return try DocumentKitError.located(at: target.url.relativePath) {
                try loop.run(original: original, header: header, unchanged: nil) { value in
                    do {
                        return try BundlePuller.pull(
                            into: target.url, from: copy, metadata: metadata,
                            resolution: BundlePuller.Resolution(document: value.encoded(pretty: false)),
                            expectedHead: outcome.head.id, requiringSignaturesFrom: signers, otherName: otherName)
                    } catch let error as DocumentKitError where error.code == .invalidDocument {
                        throw EditorLoop.Refusal(error: error)
                    }
                }
            }
        }
    }
}

/// What docctl prints after a pull.
struct PullReport: Encodable {
    /// `up-to-date`, `fast-forward`, `merged`, or `conflicts` (nothing written).
    var result: String
    var head: VersionSummary
    /// How many versions came from the other copy.
    var added: Int
    var merge: VersionSummary?
    var base: VersionSummary?
    var conflicts: [JSONMerge.Conflict]?
    /// `true` for a dry run: nothing was written.
    var dryRun: Bool?
    /// Up to date, but this copy holds versions the other lacks: how many.
    var ahead: Int?
    /// From a remote: how many of its requests were tried again.
    var retries: Int?

    private let bundle: String
    private let other: String
    private let otherIsRemote: Bool
    private enum CodingKeys: String, CodingKey {
        case result, head, added, merge, base, conflicts, dryRun, ahead, retries
    }

    init(
        _ outcome: BundlePuller.Outcome, bundle: String, other: String, otherIsRemote: Bool = false,
        dryRun: Bool = false
    ) {
        self.dryRun = dryRun ? true : nil
        result = outcome.conflicts.isEmpty ? outcome.kind.rawValue : "conflicts"
        head = VersionSummary(outcome.head)
        added = outcome.added.count
        merge = outcome.merge.map(VersionSummary.init)
        base = outcome.base.map(VersionSummary.init)
        conflicts = outcome.conflicts.isEmpty ? nil : outcome.conflicts
        ahead = outcome.ahead > 0 ? outcome.ahead : nil
        self.bundle = bundle
        self.other = other
        self.otherIsRemote = otherIsRemote
    }

    /// Prints the report; with conflicts, exits with status 1 after naming them on stderr.
    func print(json: Bool) throws {
        if json {
            try Console.printJSON(self)
        } else {
            printText()
        }
        if let conflicts {
            // A broken rule has no side to take: only a merge written by hand settles it.
            let how =
                conflicts.allSatisfy { $0.rule != nil }
                ? "resolve with --edit" : "resolve with --ours, --theirs, --resolve PATH=ours|theirs or --edit"
            Console.printError(
                """
                \(bundle): \(conflicts.count) conflict\(conflicts.count == 1 ? "" : "s") with \(other); nothing \
                was written (\(how))
                """
            )
            throw ExitCode(1)
        }
    }

    private func printText() {
        let versions = "\(added) version\(added == 1 ? "" : "s")"
        switch result {
        case "up-to-date":
            guard let ahead else {
                return Console.print("\(bundle) is up to date with \(other) (at \(Console.version(head)))")
            }
            let sends =
                otherIsRemote
                ? "\(DocumentTool.name) push \(bundle) \(other) sends them"
                : "\(DocumentTool.name) pull \(other) \(bundle) takes them there"
            Console.print(
                """
                \(bundle) is up to date with \(other) and ahead of it: \(ahead) version\(ahead == 1 ? "" : "s") \
                \(other) lacks (head \(Console.version(head))); \(sends)
                """
            )
        case "fast-forward" where dryRun == true:
            Console.print(
                """
                would fast-forward \(bundle) to \(Console.version(head)): \(versions) from \(other); nothing was \
                written
                """
            )
        case "fast-forward":
            Console.print("fast-forward \(bundle) to \(Console.version(head)): \(versions) from \(other)")
        case "merged" where dryRun == true:
            Console.print(
                """
                would merge \(other) into \(bundle) as \(Console.version(head)), with \(versions) from it (common \
                ancestor \(base.map(Console.version) ?? "none")); nothing was written
                """
            )
        case "merged":
            Console.print(
                """
                merged \(other) into \(bundle) as \(Console.version(head)), with \(versions) from it (common \
                ancestor \(base.map(Console.version) ?? "none"))
                """
            )
        default:
            Console.print(
                """
                \(conflicts?.count ?? 0) conflict\(conflicts?.count == 1 ? "" : "s") merging \(other) into \
                \(bundle) (common ancestor \(base.map(Console.version) ?? "none")):
                """
            )
            for conflict in conflicts ?? [] { Console.print("  " + Self.line(for: conflict)) }
        }
    }

    /// A conflict as the list and `--edit` show it: its path and the three values, or the
    /// rule the merge breaks.
    static func line(for conflict: JSONMerge.Conflict) -> String {
        if let rule = conflict.rule { return "\(conflict.path): breaks a rule: \(rule)" }
        return
            """
            \(conflict.path): ours \(text(conflict.ours)), theirs \(text(conflict.theirs)), base \
            \(text(conflict.base))
            """
    }

    private static func text(_ value: JSONValue?) -> String {
        value.map { String(decoding: $0.encoded(pretty: false), as: UTF8.self) } ?? "(absent)"
    }
}
