import Foundation
import Testing

@testable import DocumentKit
@testable import DocumentKitCLI
@testable import SampleProject

/// Every docctl command does work that grows no faster than n log n in the records of
/// the document: run on boards of 5,000 and 20,000 tasks, each count of `WorkMeter`
/// (bytes of JSON walked, bytes encoded, rule steps, diff steps, delta, hash, store and read
/// bytes) may grow at most 4 × log(20,000) / log(5,000) ≈ 4.65 times. A step quadratic in
/// the records grows 16 times. Counts, not times: the machine's load cannot move them.
@Suite(.serialized) struct WorkScalingTests {
    static let small = 5_000, large = 20_000
    /// n log n from `small` to `large` records.
    static let bound = Double(large) * log(Double(large)) / (Double(small) * log(Double(small)))

    /// A board of `count` tasks as bench/make_project.py makes it: four columns listing
    /// their tasks both ways, one task in ten waiting for the one before, tags on some.
    static func board(_ count: Int) -> JSONValue {
        let words = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot"]
        func id(_ number: Int) -> String { String(format: "%08x-0000-4000-8000-%012x", number, number) }
        var columns = (0..<4).map { (id: String(format: "c0000000-0000-4000-8000-%012x", $0), tasks: [JSONValue]()) }
        var tasks: [JSONValue] = []
        for number in 0..<count {
            var task: [String: JSONValue] = [
                "id": .string(id(number)),
                "title": .string("Task \(number): \(words[number % 6]) \(words[(number / 6) % 6])"),
                "status": .string(["todo", "inProgress", "done"][number % 3]),
                "notes": .string(Array(repeating: words[number % 5], count: 12).joined(separator: " ")),
                "column": .string(columns[number % 4].id)
            ]
            if number % 5 == 0 { task["tags"] = .array([.string(words[number % 6])]) }
            if number % 10 == 9 { task["blockedBy"] = .array([.string(id(number - 1))]) }
            columns[number % 4].tasks.append(.string(id(number)))
            tasks.append(.object(task))
        }
        return .object([
            "name": .string("Scaling"), "createdAt": .string("2026-01-01T00:00:00Z"), "tasks": .array(tasks),
            "columns": .array(
                columns.enumerated().map {
                    .object([
                        "id": .string($0.element.id), "name": .string("Column \($0.offset)"),
                        "tasks": .array($0.element.tasks)
                    ])
                })
        ])
    }

    /// The commands, each with what to run before it (untimed, unmetered): a fresh copy
    /// of the bundle for those that change it. `B` is the bundle, `H` one with a second
    /// version, `F` the folder the bundle was imported from, `D` the test's folder.
    static let commands: [(name: String, arguments: [String], fresh: Bool)] = [
        ("import", ["import", "F", "-o", "D/imported.dkproj", "--force"], false),
        ("set one field", ["set", "E", "tasks[7].title", "Renamed"], true),
        ("set tasks[+]", ["set", "E", "tasks[+]", #"{"title": "New"}"#], true),
        ("unset tasks[5]", ["unset", "E", "tasks[5]"], true),
        ("attach", ["attach", "E", "D/cover.png"], true),
        ("edit one task", ["edit", "E", "tasks[3]"], true),
        ("cat", ["cat", "B"], false),
        ("get", ["get", "B", "tasks[-1].title"], false),
        ("diff", ["diff", "H", "1", "head"], false),
        ("validate --deep", ["validate", "--deep", "H"], false),
        ("log", ["log", "H"], false),
        ("export", ["export", "B", "--format", "zip", "-o", "D/export.zip", "--force"], false),
        ("restore", ["restore", "E", "1"], true),
        ("prune", ["prune", "E", "--keep", "1"], true)
    ]

    /// The counts of each command on a board of `count` tasks.
    static func work(_ count: Int) throws -> [String: [String: Int]] {
        let directory = try TemporaryDirectory("scaling-\(count)")
        let d = directory.url.path
        try FileManager.default.createDirectory(atPath: "\(d)/folder", withIntermediateDirectories: true)
        try board(count).encoded(pretty: true).write(to: URL(fileURLWithPath: "\(d)/folder/document.json"))
        try Fixtures.png.write(to: URL(fileURLWithPath: "\(d)/cover.png"))
        let editor = "\(d)/editor.sh"
        try "#!/bin/sh\nsed -i 's/\"title\" : \"Task /\"title\" : \"Edited task /' \"$1\"\n".write(
            toFile: editor, atomically: true, encoding: .utf8)
        chmod(editor, 0o755)
        for arguments in [
            ["import", "\(d)/folder", "-o", "\(d)/b.dkproj"], ["import", "\(d)/folder", "-o", "\(d)/h.dkproj"],
            ["set", "\(d)/h.dkproj", "tasks[\(count / 2)].title", "Middle"]
        ] {
            let result = try Run.docctl(arguments)
            #expect(result.status == 0, "\(arguments): \(result.standardError)")
        }
        var counts: [String: [String: Int]] = [:]
        for command in commands {
            if command.fresh {
                try? FileManager.default.removeItem(atPath: "\(d)/e.dkproj")
                try FileManager.default.copyItem(
                    atPath: "\(d)/\(command.name == "restore" || command.name == "prune" ? "h" : "b").dkproj",
                    toPath: "\(d)/e.dkproj")
            }
            let arguments = command.arguments.map { argument in
                argument.replacingOccurrences(of: "D/", with: "\(d)/")
                    .replacingOccurrences(of: "F", with: "\(d)/folder", options: .anchored)
                    .replacingOccurrences(of: "^[BHE]$", with: "\(d)/$0.dkproj", options: .regularExpression)
                    .replacingOccurrences(of: "/B.dkproj", with: "/b.dkproj").replacingOccurrences(
                        of: "/H.dkproj", with: "/h.dkproj"
                    )
                    .replacingOccurrences(of: "/E.dkproj", with: "/e.dkproj")
            }
            let meter = "\(d)/meter.json"
            try? FileManager.default.removeItem(atPath: meter)
            let result = try Run.docctl(
                arguments, environment: [DocumentTool.workMeterVariable: meter, "EDITOR": editor, "VISUAL": editor])
            #expect(
                result.status == 0 || (command.name == "diff" && result.status == 1),
                "\(command.name): \(result.standardError)")
            counts[command.name] = try Self.meterCounts(meter)
        }
        return counts
    }

    @Test func everyCommandsWorkGrowsNoFasterThanNLogN() throws {
        let small = try Self.work(Self.small)
        let large = try Self.work(Self.large)
        for command in Self.commands {
            let before = small[command.name] ?? [:]
            let after = large[command.name] ?? [:]
            #expect(!before.isEmpty, "\(command.name) reported its work")
            for (kind, count) in after {
                // Constant work (an attached file hashed once) stays put; tiny counts say nothing.
                let base = max(before[kind] ?? 0, 1_000)
                #expect(
                    Double(count) <= Self.bound * Double(base),
                    """
                    \(command.name): \(kind) grew from \(before[kind] ?? 0) to \(count), \
                    \(String(format: "%.1f", Double(count) / Double(base)))x for 4x the records
                    """
                )
            }
        }
        // The meter sees the work: a one-field set on 20,000 tasks walks the document's
        // text a few times, and encodes one task, not the document.
        let set = large["set one field"] ?? [:]
        #expect((set["json-bytes"] ?? 0) > 5_000_000)
        #expect((set["encoded-bytes"] ?? Int.max) < 10_000)
        // It reads the head's document once: its bytes, the manifest and a tree or two.
        #expect(Double(set["read-bytes"] ?? Int.max) < 1.1 * Double(set["json-bytes"] ?? 0), "\(set)")
        // A removal reads and changes the records that name the removed task (its column),
        // found where its id appears, and no other record: one rule step at 5,000 and at
        // 20,000 tasks, and one column encoded (5,000 ids at 20,000 tasks, a twentieth of
        // the document), not the document.
        let unsetSmall = small["unset tasks[5]"] ?? [:]
        let unsetLarge = large["unset tasks[5]"] ?? [:]
        #expect(unsetSmall["rule-steps"] == 1 && unsetLarge["rule-steps"] == 1, "\(unsetSmall) \(unsetLarge)")
        #expect((unsetLarge["encoded-bytes"] ?? Int.max) * 10 < (unsetLarge["stored-bytes"] ?? 0), "\(unsetLarge)")
    }

    /// The work of one save in a bundle of `saves` + 1 versions of a 50-task project.
    static func saveWork(afterSaves saves: Int) throws -> [String: Int] {
        let directory = try TemporaryDirectory("history-\(saves)")
        let url = directory.url.appendingPathComponent("h.dkproj")
        let metadata = SaveMetadata(author: "test", created: Date(timeIntervalSince1970: 1_767_225_600))
        _ = try BundleEdits.create(
            at: url, type: Project.self, json: GeneratedProject.document(taskCount: 50, seed: 3), metadata: metadata)
        for save in 1...saves {
            let path = try JSONPath(parsing: "tasks[\(save % 50)].title")
            _ = try BundleEdits.set(.string("Renamed in save \(save)"), at: path, in: url, metadata: metadata)
        }
        let meter = directory.url.appendingPathComponent("meter.json").path
        let result = try Run.docctl(
            ["set", "h.dkproj", "tasks[7].title", "Metered"], in: directory.url,
            environment: [DocumentTool.workMeterVariable: meter])
        #expect(result.status == 0, "\(result.standardError)")
        return try meterCounts(meter)
    }

    /// A save reads and writes the manifest, whose tables grow with the history: its work
    /// may grow with the versions, but no faster than n log n (placing each of a manifest's
    /// objects by searching those before it was quadratic).
    @Test func aSavesWorkGrowsNoFasterThanNLogNInItsHistory() throws {
        let (few, many) = (40, 160)
        let before = try Self.saveWork(afterSaves: few)
        let after = try Self.saveWork(afterSaves: many)
        let bound = Double(many) * log(Double(many)) / (Double(few) * log(Double(few)))
        #expect((before["encoder-steps"] ?? 0) > few, "the meter sees the manifest's objects placed")
        for (kind, count) in after {
            let base = max(before[kind] ?? 0, 1_000)
            #expect(
                Double(count) <= bound * Double(base),
                """
                \(kind) grew from \(before[kind] ?? 0) to \(count), \
                \(String(format: "%.1f", Double(count) / Double(base)))x for 4x the versions
                """
            )
        }
    }

    /// The program resolves its settings once and hands them to the library, which opens
    /// no preferences file: a `set` with an author, a compression and an export format
    /// configured reads the user's preferences once and the head's document once.
    @Test func aSaveReadsTheSettingsOnceAndTheHeadOnce() throws {
        let directory = try TemporaryDirectory("settings-once")
        let environment = ["XDG_CONFIG_HOME": directory.path("config")]
        for arguments in [
            ["config", "set", "author.name", "Ada"], ["config", "set", "compression", "none"],
            ["config", "set", "export.format", "tar"], ["new", "p.dkproj", "--name", "Once"]
        ] {
            let result = try Run.docctl(arguments, in: directory.url, environment: environment)
            #expect(result.status == 0, "\(arguments): \(result.standardError)")
        }
        let counts = try Self.meteredRun(["set", "p.dkproj", "name", "Twice"], in: directory, environment: environment)
        #expect(counts["settings-reads"] == 1, "\(counts)")
        // The head's document, its manifest and tree: each read once, well under twice the document.
        let document = try Data(contentsOf: URL(fileURLWithPath: directory.path("p.dkproj"))).count
        #expect((counts["read-bytes"] ?? Int.max) < document, "\(counts)")
        // What was read once was used: the save is Ada's.
        let log = try Run.docctl(
            ["log", "p.dkproj", "-n", "1", "--author", "^Ada", "--oneline"], in: directory.url, environment: environment
        )
        #expect(log.output.hasSuffix("Ada  Set name\n"), "\(log.output)")
    }

    /// The counts a metered docctl wrote to `path`; none when it wrote no object.
    static func meterCounts(_ path: String) throws -> [String: Int] {
        guard case .object(let members) = try JSONValue.parse(try Data(contentsOf: URL(fileURLWithPath: path))) else {
            return [:]
        }
        return members.compactMapValues { if case .integer(let value) = $0 { Int(value) } else { nil } }
    }

    /// The counts of one docctl run in `directory` with the meter on; the run must succeed.
    static func meteredRun(_ arguments: [String], in directory: TemporaryDirectory, environment: [String: String] = [:])
        throws -> [String: Int]
    {
        let meter = directory.path("meter.json")
        try? FileManager.default.removeItem(atPath: meter)
        let result = try Run.docctl(
            arguments, in: directory.url,
            environment: environment.merging([DocumentTool.workMeterVariable: meter]) { $1 })
        #expect(result.status == 0, "\(arguments): \(result.standardError)")
        return try meterCounts(meter)
    }

    /// An export names blobs by what the document records, so it reads the document only
    /// when the version has blobs: a large document without any is copied, not parsed
    /// (parsing it anyway made `export` of 40,000 tasks 1.4x slower, in twice the memory).
    @Test func anExportParsesTheDocumentOnlyToNameBlobs() throws {
        let directory = try TemporaryDirectory("export-work")
        try FileManager.default.createDirectory(atPath: directory.path("folder"), withIntermediateDirectories: true)
        let document = Self.board(2_000).encoded(pretty: true)
        try document.write(to: URL(fileURLWithPath: directory.path("folder/document.json")))
        #expect(try Run.docctl(["import", "folder", "-o", "b.dkproj"], in: directory.url).status == 0)
        for arguments in [["export", "b.dkproj", "-o", "b.zip"], ["ls", "b.dkproj", "-l"]] {
            let plain = try Self.meteredRun(arguments, in: directory)
            #expect((plain["json-bytes"] ?? Int.max) < document.count / 10, "\(arguments): \(plain)")
        }
        try Fixtures.png.write(to: URL(fileURLWithPath: directory.path("cover.png")))
        #expect(try Run.docctl(["attach", "b.dkproj", "cover.png"], in: directory.url).status == 0)
        let named = try Self.meteredRun(["export", "b.dkproj", "-o", "c.zip"], in: directory)
        #expect(
            (named["json-bytes"] ?? 0) > document.count / 2, "with a blob the document is read for its name: \(named)")
    }
}
