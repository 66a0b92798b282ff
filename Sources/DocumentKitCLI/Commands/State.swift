import ArgumentParser
import DocumentKit
import Foundation

extension DocumentTool {
    struct State: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "state",
            abstract: "Show and change a bundle's state: what to remember about it that is not the document.",
            discussion: """
                The state is kept in the bundle (its state.json), outside its history: changing it \
                makes no version and leaves the document as it is, and saves keep it. Known state:

                \(Console.describe(NamedBundleState.settings))

                Any other key is an application's own: list, get and unset show and remove it as \
                stored, and set stores VALUE as JSON where it parses, otherwise as a string.
                """,
            subcommands: [List.self, Get.self, Set.self, Unset.self, Clear.self])
    }
}

/// The KEY argument of `state get`, `set` and `unset`.
struct StateKeyArgument: ParsableArguments {
    @Argument(
        help: "A state name such as export.format, or an application's key.",
        completion: .list(NamedBundleState.settings.map(\.name)))
    var key: String
}

extension DocumentTool.State {
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "List the known state with its values, then every other key.")

        @OptionGroup var target: BundleArgument
        @OptionGroup var output: OutputOptions

        func run() throws {
            let entries = try NamedBundleState.list(in: target.url)
            if output.json { return try Console.printJSON(entries) }
            Console.printSettings(entries)
        }
    }

    struct Get: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "get",
            abstract: "Print a state value.",
            discussion: "Exits 1, printing nothing, when nothing is stored under the key (--json prints null then).")

        @OptionGroup var target: BundleArgument
        @OptionGroup var key: StateKeyArgument
        @OptionGroup var output: OutputOptions

        func run() throws {
            let entry = try NamedBundleState.get(key.key, in: target.url)
            try Console.printSetting(entry, json: output.json)
        }
    }

    struct Set: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set",
            abstract: "Set a state value; makes no version.",
            discussion: """
                A value the known state does not take (an export format \(DocumentTool.name) does not write, \
                a task id that is not a UUID) is refused, and nothing is changed. For any other \
                key, VALUE is read as JSON where it parses, otherwise as a string.
                """)

        @OptionGroup var target: BundleArgument
        @OptionGroup var key: StateKeyArgument
        @Argument(help: "The new value.")
        var value: String
        @Flag(help: "Take VALUE as a string even if it parses as JSON (for an application's key).")
        var string = false
        @OptionGroup var dryRun: DryRunOption

        func run() throws {
            guard dryRun.dryRun else {
                return try NamedBundleState.set(key.key, to: value, asString: string, in: target.url)
            }
            try NamedBundleState.check(key.key, value: value, in: target.url)
            Console.print("would set \(key.key) to \(value) in \(target.bundle); nothing was written")
        }
    }

    struct Unset: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "unset", abstract: "Remove a state value; makes no version.")

        @OptionGroup var target: BundleArgument
        @OptionGroup var key: StateKeyArgument
        @OptionGroup var dryRun: DryRunOption

        func run() throws {
            guard dryRun.dryRun else { return try NamedBundleState.unset(key.key, in: target.url) }
            try NamedBundleState.check(key.key, value: nil, in: target.url)
            Console.print("would unset \(key.key) in \(target.bundle); nothing was written")
        }
    }

    struct Clear: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "clear",
            abstract: "Remove the whole state; makes no version.",
            discussion:
                """
                Works also when the state cannot be read (validate reports state.invalid), which is how such a \
                bundle is mended.
                """
        )

        @OptionGroup var target: BundleArgument
        @OptionGroup var dryRun: DryRunOption

        func run() throws {
            guard dryRun.dryRun else { return try NamedBundleState.clear(in: target.url) }
            _ = try DocumentBundle(contentsOf: target.url)
            Console.print("would clear the state of \(target.bundle); nothing was written")
        }
    }
}
