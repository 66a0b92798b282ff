import Foundation
import Testing

/// The folders of each library target point one way (issue 26): a folder's files refer to
/// the types of folders below it and never, through any chain, back to their own. The graph
/// is built from the sources: each type is owned by the folder of the file that declares it
/// at the top level, and a file's folder depends on the folder owning each type it names.
/// Files at a target's top sit in a folder of their own, `.`.
@Suite struct FolderGraphTests {
    /// A target's folder graph: for each folder, the folders it refers to, with one
    /// reference each (`file: Type`) to say why.
    static func graph(of target: String) throws -> [String: [String: String]] {
        let files = try SourceRulesTests.files(of: target).map { file in
            let relative = String(file.path.dropFirst(target.count + 1))
            let folder = relative.contains("/") ? String(relative.prefix { $0 != "/" }) : "."
            return (path: file.path, folder: folder, code: withoutStrings(file.code))
        }
        let declaration = try NSRegularExpression(
            pattern:
                #"^(?:(?:public|package|internal|private|fileprivate|final|indirect|@\w+(?:\([^)]*\))?)\s+)*(?:struct|class|enum|protocol|actor|typealias)\s+(\w+)"#,
            options: .anchorsMatchLines)
        var owner: [String: String] = [:]
        for file in files {
            for match in declaration.matches(in: file.code, range: NSRange(file.code.startIndex..., in: file.code)) {
                let name = String(file.code[Range(match.range(at: 1), in: file.code)!])
                if owner[name] == nil { owner[name] = file.folder }
            }
        }
        let typeName = try NSRegularExpression(pattern: #"\b[A-Z]\w*\b"#)
        var edges: [String: [String: String]] = [:]
        for file in files {
            edges[file.folder, default: [:]] = edges[file.folder] ?? [:]
            for match in typeName.matches(in: file.code, range: NSRange(file.code.startIndex..., in: file.code)) {
                let name = String(file.code[Range(match.range, in: file.code)!])
                guard let folder = owner[name], folder != file.folder, edges[file.folder]?[folder] == nil else {
                    continue
                }
                edges[file.folder]![folder] = "\(file.path): \(name)"
            }
        }
        return edges
    }

    /// The code without the contents of its string literals, which name types in messages.
    static func withoutStrings(_ code: String) -> String {
        let literals = try! NSRegularExpression(pattern: #"(?s)\"\"\".*?\"\"\"|"(?:\\.|[^"\\\n])*""#)
        return literals.stringByReplacingMatches(
            in: code, range: NSRange(code.startIndex..., in: code), withTemplate: "\"\"")
    }

    /// A cycle of `graph`, as its folders in order with the reference behind each step,
    /// or `nil` when it has none.
    static func cycle(in graph: [String: [String: String]]) -> [String]? {
        var state: [String: Bool] = [:]  // false: on the current path; true: done
        var path: [String] = []
        func visit(_ folder: String) -> [String]? {
            state[folder] = false
            path.append(folder)
            for next in (graph[folder] ?? [:]).keys.sorted() {
                if state[next] == false {
                    let loop = Array(path[path.firstIndex(of: next)!...]) + [next]
                    return zip(loop, loop.dropFirst()).map { "\($0) -> \($1) (\(graph[$0]![$1]!))" }
                }
                if state[next] == nil, let found = visit(next) { return found }
            }
            state[folder] = true
            path.removeLast()
            return nil
        }
        for folder in graph.keys.sorted() where state[folder] == nil {
            if let found = visit(folder) { return found }
        }
        return nil
    }

    @Test(arguments: SourceRulesTests.libraryTargets + ["DocumentKitCLI"])
    func theFoldersOfEachLibraryTargetPointOneWay(target: String) throws {
        let graph = try Self.graph(of: target)
        #expect(Self.cycle(in: graph) == nil, "\(target): \(Self.cycle(in: graph)?.joined(separator: "; ") ?? "")")
    }

    @Test func theGraphSeesTheFoldersAndWhatTheyUse() throws {
        let graph = try Self.graph(of: "DocumentKit")
        #expect(
            Set(graph.keys).isSuperset(of: [
                "Model", "Saving", "Editing", "Export", "History", "Maintenance", "Pull", "Remotes", "OCFL"
            ]))
        // Editing saves through Saving; Export reads the history it exports.
        #expect(graph["Editing"]?["Saving"] != nil)
        #expect(graph["Export"]?["History"] != nil)
        #expect(graph["Model"]?["Editing"] == nil)
    }

    @Test func aCycleIsFoundAndSaidStepByStep() {
        let graph = [
            "A": ["B": "A/x.swift: Bee"], "B": ["C": "B/y.swift: Sea"], "C": ["A": "C/z.swift: Ay"],
            "D": ["A": "D/w.swift: Ay"]
        ]
        #expect(
            Self.cycle(in: graph) == ["A -> B (A/x.swift: Bee)", "B -> C (B/y.swift: Sea)", "C -> A (C/z.swift: Ay)"])
        #expect(Self.cycle(in: ["A": ["B": "A/x.swift: Bee"], "B": [:]]) == nil)
    }
}
