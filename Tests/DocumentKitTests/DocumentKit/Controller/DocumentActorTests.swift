import DocumentKit
import Foundation
import Testing

/// An app saving from many tasks (Swift 6 concurrency, checked by the compiler and, under
/// `scripts/sanitize.sh thread`, by ThreadSanitizer): saves through one actor follow each
/// other; saves through actors opened at the same version get conflicts, never a lost
/// update or a race.
@Suite struct DocumentActorTests {
    private func memoBundle(in directory: TemporaryDirectory) throws -> URL {
        let url = directory.url.appendingPathComponent("m.memo")
        try DocumentController(newDocument: Memo(title: "Shared"), at: url).save(message: "Start", author: "Ada")
        return url
    }

    @Test func tasksSavingThroughOneActorAllLand() async throws {
        let directory = try TemporaryDirectory()
        let memo = try await DocumentActor<Memo>(contentsOf: try memoBundle(in: directory))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in 0..<8 {
                group.addTask {
                    try await memo.write(message: "Line \(writer)", author: "writer \(writer)") {
                        $0.text += "line \(writer)\n"
                    }
                }
            }
            try await group.waitForAll()
        }
        let bundle = try await DocumentBundle.open(memo.url)
        #expect(try bundle.manifest.versions.count == 9)
        let lines = try bundle.read(Memo.self).text.split(separator: "\n").sorted()
        #expect(lines == (0..<8).map { "line \($0)" }.sorted())
        #expect(try await memo.version?.id == bundle.manifest.head)
        // The memo type is the app's: this build's validator warns that it does not know it.
        let findings = try await BundleValidator.validate(memo.url, deep: true).findings
        #expect(findings.map(\.code) == ["document.unknown-type"], "\(findings)")
    }

    @Test func actorsOpenedAtTheSameVersionGetConflictsNotLostUpdates() async throws {
        let directory = try TemporaryDirectory()
        let url = try memoBundle(in: directory)
        var writers: [DocumentActor<Memo>] = []
        for _ in 0..<4 { writers.append(try await DocumentActor<Memo>(contentsOf: url)) }
        let outcomes = await withTaskGroup(of: Result<BundleVersion?, any Error>.self) { group in
            for (index, writer) in writers.enumerated() {
                group.addTask {
                    await Result {
                        try await writer.write(message: "Writer \(index)", author: "w\(index)") {
                            $0.text = "by \(index)"
                        }
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        let saved = outcomes.filter { if case .success(let version?) = $0 { version.number == 2 } else { false } }
        let conflicts = outcomes.filter { outcome in
            if case .failure(let error as DocumentKitError) = outcome { error.code == .conflict } else { false }
        }
        #expect(saved.count == 1 && conflicts.count == 3, "\(outcomes)")

        // Each loser reads the winner's version and tries again: every change lands once.
        for writer in writers where await writer.version?.number == 1 {
            try await writer.revert()
            try await writer.write(message: "Again", author: "retry") { $0.title += "+" }
        }
        let bundle = try await DocumentBundle.open(url)
        #expect(try bundle.manifest.versions.count == 5)
        #expect(try bundle.read(Memo.self).title == "Shared+++")
    }
}

extension Result where Failure == any Error {
    /// The value of `body`, or the error it threw.
    init(_ body: () async throws -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}
