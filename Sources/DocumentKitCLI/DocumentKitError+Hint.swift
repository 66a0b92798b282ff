import DocumentKit

extension DocumentKitError {
    /// The error as the tool says it: the library's `path: location: message`, then the
    /// option that gets past it, in the tool's words (`tool` is the name it runs as).
    func described(byTool tool: String) -> String {
        guard let remedy else { return description }
        let hint = switch remedy {
        case .replaceOutput: " (use --force to replace it)"
        case .createBundle: " (import with --output to create one)"
        case .validateFully: " ('\(tool) validate --deep' lists every problem)"
        case .onlySignedVersions: " (--require-signed takes only versions signed by a trusted key)"
        case .nameAttachmentPlace: "; name one with --as PATH"
        case .chooseProject: " (name one with --object ID)"
        case .pushAsNewProject(let beside): "; push with --new-project to add this one beside \(beside) (a clone then needs --object)"
        case .pullFirst(let bundle, let remote): " (pull first: '\(tool) pull \(bundle) \(remote)', then push again)"
        case .archiveACopyHoldingIt: "; archive a copy that holds it ('\(tool) pull') or into another root"
        case .cloneInstead(let source, let output): ": '\(tool) clone \(source) -o \(output)' copies the project it holds"
        }
        return description + hint
    }
}
