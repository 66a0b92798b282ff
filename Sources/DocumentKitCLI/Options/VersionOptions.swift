import ArgumentParser

/// `--version V`, for commands that read a version other than the head.
struct VersionOption: ParsableArguments {
    @Option(name: .customLong("version"), help: "The version: a number, an id prefix, head or head~N (default: head).")
    var name: String?
}

/// `--dry-run`, for commands that write something other than a new version (those take
/// it with ``EditOptions``).
struct DryRunOption: ParsableArguments {
    @Flag(name: .customLong("dry-run"), help: "Report what would be written, and write nothing.")
    var dryRun = false
}

/// `--force`, for commands that create an output.
struct ForceOption: ParsableArguments {
    @Flag(help: "Replace the output if it exists.")
    var force = false
}
