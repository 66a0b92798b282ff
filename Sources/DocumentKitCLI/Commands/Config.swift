import ArgumentParser
import DocumentKit
import Foundation

extension DocumentTool {
    struct Config: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "config",
            abstract: "Show and change your settings: author, export format, compression.",
            discussion: """
                Settings are kept in $XDG_CONFIG_HOME/docctl/preferences.json \
                (~/.config/docctl/preferences.json when XDG_CONFIG_HOME is unset). Known settings:

                \(Console.describe(NamedUserSettings.settings))
                """,
            subcommands: [Get.self, Set.self, Unset.self, List.self])
    }
}

/// The KEY argument of `config get`, `set` and `unset`.
struct SettingArgument: ParsableArguments {
    @Argument(help: "A setting, such as author.name.", completion: .list(NamedUserSettings.settings.map(\.name)))
    var key: String
}

extension DocumentTool.Config {
    struct Get: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "get",
            abstract: "Print a setting's value, or its default.",
            discussion:
                """
                Exits 1, printing nothing, when the setting has neither a value nor a default (--json prints null \
                then).
                """
        )

        @OptionGroup var setting: SettingArgument
        @OptionGroup var output: OutputOptions

        func run() throws {
            let entry = try NamedUserSettings.get(setting.key)
            try Console.printSetting(entry, json: output.json)
        }
    }

    struct Set: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set",
            abstract: "Set a setting.",
            discussion:
                """
                A value the setting does not take (an export format \(DocumentTool.name) does not write) is \
                refused, and nothing is changed.
                """
        )

        @OptionGroup var setting: SettingArgument
        @Argument(help: "The new value.")
        var value: String
        @OptionGroup var dryRun: DryRunOption

        func run() throws {
            guard dryRun.dryRun else { return try NamedUserSettings.set(setting.key, to: value) }
            // Checked as a real set checks it, into settings that live in memory only.
            try NamedUserSettings.set(setting.key, to: value, settings: UserSettings(storage: InMemoryStorage()))
            Console.print("would set \(setting.key) to \(value); nothing was written")
        }
    }

    struct Unset: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "unset", abstract: "Remove a setting's value, so that its default applies.")

        @OptionGroup var setting: SettingArgument
        @OptionGroup var dryRun: DryRunOption

        func run() throws {
            guard dryRun.dryRun else { return try NamedUserSettings.unset(setting.key) }
            _ = try NamedUserSettings.setting(named: setting.key)
            Console.print("would unset \(setting.key); nothing was written")
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "List every setting with its value or default.")

        @OptionGroup var output: OutputOptions

        func run() throws {
            let entries = try NamedUserSettings.list()
            if output.json { return try Console.printJSON(entries) }
            Console.printSettings(entries)
        }
    }
}

extension Console {
    /// A setting's value as text: a string as it is, anything else as JSON.
    static func setting(_ value: JSONValue) -> String {
        if case .string(let text) = value { return text }
        return value.jsonText(pretty: false)
    }

    /// What `get` prints of one setting: its value as text, or as JSON (`null` when it has
    /// none); without a value, nothing, and exit 1.
    static func printSetting(_ entry: NamedSettingValue, json: Bool) throws {
        if json { return try printJSON(entry) }
        guard let value = entry.value else { throw ExitCode(1) }
        print(setting(value))
    }

    /// `author.name    Ada`, one setting a line, names in a column; `(default)` after a
    /// value that is the default, `(not set)` for no value.
    static func printSettings(_ entries: [NamedSettingValue]) {
        let width = entries.map(\.name.count).max() ?? 0
        for entry in entries {
            let shown = entry.value.map { setting($0) + (entry.isSet ? "" : " (default)") } ?? "(not set)"
            print(entry.name.padding(toLength: width + 2, withPad: " ", startingAt: 0) + shown)
        }
    }

    /// The settings for a command's help: `  export.format  what exports write …`, one
    /// a setting, with the choices on a line of their own; a summary or choices too long
    /// for 80 columns go on below their start, in their column (the help would wrap them
    /// at the margin).
    static func describe<Settings>(_ settings: [NamedSetting<Settings>]) -> String {
        let width = (settings.map(\.name.count).max() ?? 0) + 4
        let indent = String(repeating: " ", count: width)
        return settings.map { setting in
            var lines: [String] = []
            func wrap(_ text: String) {
                lines.append("")
                for word in text.split(separator: " ") {
                    if !lines[lines.count - 1].isEmpty, width + lines[lines.count - 1].count + 1 + word.count > 79 {
                        lines.append("")
                    }
                    lines[lines.count - 1] += (lines[lines.count - 1].isEmpty ? "" : " ") + word
                }
            }
            wrap(setting.summary)
            if let choices = setting.choices { wrap("one of: " + choices.joined(separator: ", ")) }
            let name = "  " + setting.name.padding(toLength: width - 2, withPad: " ", startingAt: 0)
            return name + lines.joined(separator: "\n" + indent)
        }.joined(separator: "\n")
    }
}
