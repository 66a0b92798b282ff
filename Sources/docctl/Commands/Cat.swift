import ArgumentParser
import DocumentKit
import Foundation

extension DocCtl {
    struct Cat: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "cat", abstract: "Print a version's document JSON (default: the head).")

        @OptionGroup var target: BundleArgument
        @OptionGroup var version: VersionOption

        func run() throws {
            Console.write(try BundleReading.documentData(of: target.url, version: version.name))
        }
    }
}
