import DocumentKit

extension DocumentKitError.Remedy {
    /// The remedy as the tool says it, to append to the library's message: the option or
    /// command that gets past it, in the words of `tool` (the name it runs as).
    func hint(byTool tool: String) -> String {
        switch self {
        case .replaceOutput: " (use --force to replace it)"
        case .createBundle: " (import with --output to create one)"
        case .validateFully: " ('\(tool) validate --deep' lists every problem)"
        case .onlySignedVersions: " (--require-signed takes only versions signed by a trusted key)"
        case .nameAttachmentPlace: "; name one with --as PATH"
        case .chooseProject: " (name one with --object ID)"
        case .pushAsNewProject(let beside):
            "; push with --new-project to add this one beside \(beside) (a clone then needs --object)"
        case .pullFirst(let bundle, let remote): " (pull first: '\(tool) pull \(bundle) \(remote)', then push again)"
        case .archiveACopyHoldingIt: "; archive a copy that holds it ('\(tool) pull') or into another root"
        case .cloneInstead(let source, let output):
            ": '\(tool) clone \(source) -o \(output)' copies the project it holds"
        case .writeCompactCopy: ", and '\(tool) pack' writes a copy without superseded bytes"
        case .saveInCurrentSchema: ", and '\(tool) migrate' saves it so"
        case .givePrintedKey: " (as '\(tool) key show' prints it)"
        }
    }
}

extension DocumentKitError {
    /// The error as the tool says it: the library's `path: location: message`, then the
    /// option that gets past it, in the tool's words.
    func described(byTool tool: String) -> String {
        description + (remedy?.hint(byTool: tool) ?? "")
    }
}

extension ValidationFinding {
    /// The finding as the tool says it: `error object.missing: …: message`, then what gets
    /// past it, in the tool's words.
    func described(byTool tool: String) -> String {
        description + (remedy?.hint(byTool: tool) ?? "")
    }
}
