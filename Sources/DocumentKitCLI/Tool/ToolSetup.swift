import DocumentKit
import Foundation

/// What the tool was started with (``DocumentTool/run(name:types:s3:)``): the name it runs
/// as, its document types and how it opens `s3://` remotes; set once, before any command
/// runs, and read by every folder of the CLI, which is why it sits below them all.
enum ToolSetup {
    private static let setup = Protected<(name: String, types: [any CodableDocument.Type], s3: S3RemoteOpener?)>(
        ("docctl", [], nil))

    /// Records what the tool was started with.
    static func start(name: String, types: [any CodableDocument.Type], s3: S3RemoteOpener?) {
        setup.value = (name, types, s3)
    }

    /// The name the tool is run as, in its help and messages.
    static var name: String { setup.value.name }
    /// The tool's document types; `new` and `import` create the first.
    static var types: [any CodableDocument.Type] { setup.value.types }
    /// How `s3://` remotes are opened; `nil` in a tool without an S3 client, which hands
    /// such commands to its S3 helper.
    static var s3Opener: S3RemoteOpener? { setup.value.s3 }

    /// The user's home folder, as every setting the tool reads finds it: `$HOME` when set and
    /// not empty (as the shell, git and the AWS tools take it, so `HOME=$PWD/bob docctl …`
    /// acts as bob in every respect), else the home folder of the user database. `nil` when
    /// neither names one.
    static func homeFolder(environment: [String: String]) -> String? {
        if let home = environment["HOME"], !home.isEmpty { return home }
        return SystemCall.user().home
    }
}
