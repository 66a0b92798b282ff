import Foundation
import Testing

/// DESIGN.md's word table ("Names keep one word per idea") names types a newcomer will
/// look for: each must be declared in the sources, so that a rename cannot leave the table
/// pointing at a type that is gone (issue 26).
@Suite struct WordTableTests {
    /// The table's rows: the word, and the type names in backticks in its last column.
    static func rows() throws -> [(word: String, types: [String])] {
        let design = try String(
            contentsOf: Fixtures.repository.appendingPathComponent("DESIGN.md"), encoding: .utf8)
        let table = try #require(design.range(of: "Names keep one word per idea"))
        let typeName = try NSRegularExpression(pattern: "`([A-Z][A-Za-z0-9]*(?:\\.[A-Z][A-Za-z0-9]*)*)`")
        var rows: [(word: String, types: [String])] = []
        for line in design[table.upperBound...].split(separator: "\n").drop(while: { !$0.hasPrefix("|") })
            .prefix(while: { $0.hasPrefix("|") })
        {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count == 3, cells[0] != "word", !cells[0].hasPrefix("---") else { continue }
            let text = cells[2]
            let names = typeName.matches(in: text, range: NSRange(text.startIndex..., in: text)).map {
                String(text[Range($0.range(at: 1), in: text)!])
            }
            rows.append((cells[0], names))
        }
        return rows
    }

    @Test func everyTypeTheWordTableNamesIsDeclared() throws {
        let rows = try Self.rows()
        #expect(rows.count >= 20, "the table is where the test looks")
        let targets = try FileManager.default.contentsOfDirectory(atPath: SourceRulesTests.sources.path)
        let code = try targets.flatMap { try SourceRulesTests.files(of: $0) }.map(\.code).joined(separator: "\n")
        var missing: [String] = []
        for (word, types) in rows {
            for name in types {
                // A nested type (`BundleWriter.Contents`) is declared under its last name;
                // a module (`DocumentKitArchive`) is a folder of the sources.
                let last = String(name.split(separator: ".").last!)
                let declared = try NSRegularExpression(
                    pattern: "\\b(struct|class|enum|protocol|actor|typealias|func)\\s+\(last)\\b")
                guard !targets.contains(name),
                    declared.firstMatch(in: code, range: NSRange(code.startIndex..., in: code)) == nil
                else { continue }
                missing.append("\(word): \(name)")
            }
        }
        #expect(missing == [], "DESIGN.md's word table names types the sources do not declare")
    }
}
