import ArgumentParser

/// `--version V`, for commands that read a version other than the head.
struct VersionOption: ParsableArguments {
    @Option(name: .customLong("version"), help: "The version: a number, an id prefix, head or head~N (default: head).")
    var name: String?
}

/// `--force`, for commands that create an output.
struct ForceOption: ParsableArguments {
    @Flag(help: "Replace the output if it exists.")
    var force = false
}
