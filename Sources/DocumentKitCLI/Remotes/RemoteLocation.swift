import ArgumentParser
import DocumentKit
import Foundation

/// Where a remote is, as the user named it: `s3://bucket/prefix`, or a folder.
enum RemoteLocation: Equatable {
    case folder(String)
    case s3(bucket: String, prefix: String)

    init(_ text: String) throws {
        guard text.hasPrefix("s3://") else {
            if let refusal = Self.mistypedAddress(text) { throw DocumentKitError(.usage, refusal, path: text) }
            self = .folder(text)
            return
        }
        let rest = text.dropFirst(5)
        let bucket = rest.prefix { $0 != "/" }
        guard !bucket.isEmpty else {
            throw ValidationError("'\(text)' names no bucket: write s3://BUCKET or s3://BUCKET/PREFIX")
        }
        self = .s3(
            bucket: String(bucket), prefix: rest.dropFirst(bucket.count).split(separator: "/").joined(separator: "/"))
    }

    /// Whether `text` names a remote rather than a bundle: an `s3://` address, or a folder
    /// (a bundle is a file), or what looks like an address (refused when opened).
    static func isRemote(_ text: String) -> Bool {
        text.hasPrefix("s3://") || FileTree.isFolder(text) || mistypedAddress(text) != nil
    }

    /// Why `text`, which looks like an address (`scheme:/...`) but is not one this build
    /// speaks, is refused rather than taken for a folder of that name, with what was
    /// probably meant; `nil` for anything else, and for a folder that exists.
    static func mistypedAddress(_ text: String) -> String? {
        guard let colon = text.firstIndex(of: ":"), text[colon...].hasPrefix(":/"),
            !FileTree.isFolder(text)
        else { return nil }
        let scheme = text[..<colon]
        guard let first = scheme.first, first.isLetter,
            scheme.allSatisfy({ $0.isLetter || $0.isNumber || "+.-".contains($0) })
        else { return nil }
        let rest = text[text.index(after: colon)...].drop { $0 == "/" }
        let speaks = "a remote is a folder or s3://BUCKET/PREFIX"
        if scheme.lowercased() == "s3" {
            return "not an S3 address (\(speaks)); did you mean s3://\(rest)?"
        }
        if ["http", "https"].contains(scheme.lowercased()) {
            return
                """
                a web address, not a remote (\(speaks)); for an S3-compatible service at that address, give \
                s3://BUCKET/PREFIX with --endpoint \(scheme.lowercased())://\(rest.prefix { $0 != "/" })
                """
        }
        return
            """
            a \(scheme): address, which this build does not speak (\(speaks)); to use a folder of that name, write \
            ./\(text)
            """
    }

    /// The remote's store. An S3 remote in a tool built without an S3 client is handed to
    /// the tool's S3 helper, `NAME-s3` beside it, with the same arguments: the process is
    /// replaced, so this returns only for folders or with an S3 client.
    func open(_ connection: RemoteConnection) throws -> any RemoteStore {
        CountedRemoteStore.counting(try openUncounted(connection))
    }

    private func openUncounted(_ connection: RemoteConnection) throws -> any RemoteStore {
        switch self {
        case .folder(let path):
            return FolderRemoteStore(root: URL(fileURLWithPath: path))
        case .s3(let bucket, let prefix):
            if let opener = ToolSetup.s3Opener { return try opener(bucket, prefix, connection) }
            throw S3Helper.handOver(remote: "s3://\(bucket)" + (prefix.isEmpty ? "" : "/\(prefix)"))
        }
    }
}

/// The program that runs a tool's commands on S3 remotes: the same commands with an S3
/// client linked in, which the tool itself leaves out, so that every other command starts
/// without it (the HTTP stack costs each run about 4 MiB of memory). git's remote
/// helpers (`git-remote-https`) are the same idea.
enum S3Helper {
    /// Replaces this process with `NAME-s3` from the tool's folder; returns the error when
    /// there is none, which names `remote` and says what to run to have the helper.
    static func handOver(remote: String) -> DocumentKitError {
        let executable =
            Bundle.main.executableURL?.resolvingSymlinksInPath() ?? URL(fileURLWithPath: CommandLine.arguments[0])
        let folder = executable.deletingLastPathComponent()
        let helper = folder.appendingPathComponent("\(ToolSetup.name)-s3").path
        guard FileTree.isExecutable(helper) else {
            return DocumentKitError(
                .unavailable,
                """
                S3 remotes need \(ToolSetup.name)-s3, which is not beside \(ToolSetup.name) (in \
                \(folder.path)): \(howToGet(into: folder))
                """,
                path: remote)
        }
        return ChildProcess.replaceProcess(with: helper, arguments: [helper] + CommandLine.arguments.dropFirst())
    }

    /// What to run to put the helper in `folder`, the tool's. A tool built in its package
    /// (`ROOT/.build/CONFIGURATION`, whose name ends in `debug` or `release`) is built
    /// without the helper unless asked, to keep the build of everything else free of the
    /// HTTP stack: the same build, for the helper; docctl's release is built by its script,
    /// with its flags. An installed tool lacks an installed helper.
    static func howToGet(into folder: URL) -> String {
        let helper = "\(ToolSetup.name)-s3"
        let parts = folder.standardizedFileURL.pathComponents
        guard let build = parts.lastIndex(of: ".build"), build > 0 else {
            return ToolSetup.name == "docctl"
                ? "install it beside docctl (DocumentKit's scripts/install.sh installs both)"
                : "install it beside \(ToolSetup.name)"
        }
        let root = NSString.path(withComponents: Array(parts[..<build]))
        let release = parts.last?.hasSuffix("release") == true
        let script = "scripts/build-\(ToolSetup.name).sh"
        if release, FileTree.isExecutable("\(root)/\(script)") {
            return "build it with '\(script) --s3' in \(root)"
        }
        return "build it with 'swift build\(release ? " -c release" : "") --product \(helper)' in \(root)"
    }
}
