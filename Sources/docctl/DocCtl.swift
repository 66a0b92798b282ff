import ArgumentParser
import DocumentKit

@main
struct DocCtl: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "docctl", abstract: "Open, edit, export and validate DocumentKit bundles.")
}
