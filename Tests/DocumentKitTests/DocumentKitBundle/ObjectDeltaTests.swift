import Foundation
import Testing

@testable import DocumentKit

@Suite struct ObjectDeltaTests {
    /// Encodes, checks the header, applies, and returns the program.
    @discardableResult
    private func roundTrip(_ target: Data, from base: Data, sourceLocation: SourceLocation = #_sourceLocation) throws
        -> Data
    {
        let program = ObjectDelta.encode(target: target, base: base)
        #expect(program.prefix(4) == Data("DKD1".utf8), sourceLocation: sourceLocation)
        let rebuilt = try ObjectDelta.apply(program, to: base, expectedSize: target.count)
        #expect(
            rebuilt == target, "base \(base.count) bytes, target \(target.count) bytes", sourceLocation: sourceLocation)
        return program
    }

    @Test func emptyAndIdenticalInputs() throws {
        var random = SeededRandom(seed: 1)
        let text = Data(GeneratedProject.phrase(20_000, using: &random).utf8)
        #expect(try roundTrip(Data(), from: Data()) == Data("DKD1".utf8) + [0, 0])
        #expect(try roundTrip(Data(), from: text).count <= 4 + 3 + 1)
        #expect(try roundTrip(text, from: Data()).count <= text.count + 4 + 1 + 3 + 1 + 3)
        // The whole base, once: magic, two sizes, COPY 0 count.
        #expect(try roundTrip(text, from: text).count <= 4 + 3 + 3 + 1 + 1 + 3)
        for size in 0...40 {
            let short = text.prefix(size)
            try roundTrip(short, from: short)
            try roundTrip(short, from: text)
            try roundTrip(text, from: short)
        }
    }

    @Test func unrelatedInputsCostTheTargetsSize() throws {
        let base = Fixtures.noise(300_000, seed: 1)
        let target = Fixtures.noise(200_000, seed: 2)
        let program = try roundTrip(target, from: base)
        #expect(program.count <= target.count + 16)
    }

    @Test(arguments: 0..<8)
    func randomEditsRoundTrip(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        for _ in 0..<25 {
            let base = Self.sample(count: Int.random(in: 0...30_000, using: &random), using: &random)
            var target = base
            let edits = Int.random(in: 0...12, using: &random)
            for _ in 0..<edits { Self.edit(&target, using: &random) }
            let program = try roundTrip(target, from: base)
            if edits == 0 { #expect(program.count <= 20) }
        }
    }

    /// A chain of programs folded into one builds what running them one after another
    /// builds: how an old version is read through its deltas (`objectData`).
    @Test(arguments: 0..<6)
    func aFoldedChainBuildsWhatTheProgramsBuildInTurn(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        let first = Self.sample(count: Int.random(in: 0...20_000, using: &random), using: &random)
        var texts = [first]
        for _ in 0..<30 {
            var next = texts.last!
            // Some links rewrite everything, so that literal bytes get copied onwards too.
            if Int.random(in: 0..<10, using: &random) == 0 {
                next = Self.sample(count: Int.random(in: 0...5_000, using: &random), using: &random)
            }
            for _ in 0..<Int.random(in: 0...6, using: &random) { Self.edit(&next, using: &random) }
            texts.append(next)
        }
        var links: [DeltaInstructions] = []
        for (base, target) in zip(texts, texts.dropFirst()) {
            let program = ObjectDelta.encode(target: target, base: base)
            let link = try DeltaInstructions(program: program, baseSize: base.count, expectedSize: target.count)
            #expect(try link.apply(to: base) == target)
            links.append(link)
            let folded = DeltaInstructions.folded(links)
            #expect(try folded.apply(to: first) == target)
            // Folding never splits the target into more pieces than it has bytes.
            #expect(folded.pieces.count <= max(target.count, 1))
        }
        #expect(throws: DocumentKitError.self) { try DeltaInstructions.folded(links).apply(to: first + Data([0])) }
    }

    @Test func oneChangedTaskInAFiveMegabyteDocumentGivesATinyProgram() throws {
        let document = GeneratedProject.document(taskCount: 25_000, seed: 7)
        let base = document.encoded()
        #expect(base.count > 5_000_000)
        guard case .object(var members) = document, case .array(var tasks) = members["tasks"],
            case .object(var task) = tasks[12_345]
        else {
            Issue.record("unexpected document shape")
            return
        }
        task["title"] = .string("A new title for this task, longer than the old one")
        tasks[12_345] = .object(task)
        members["tasks"] = .array(tasks)
        let target = JSONValue.object(members).encoded()
        let program = try roundTrip(target, from: base)
        #expect(program.count < 128, "a COPY, an ADD of the new title, a COPY: \(program.count) bytes")
        // A task inserted and another removed still cost about the inserted task's text.
        var random = SeededRandom(seed: 2)
        tasks.insert(GeneratedProject.task(99_999, using: &random), at: 100)
        tasks.remove(at: 20_000)
        members["tasks"] = .array(tasks)
        let edited = try roundTrip(JSONValue.object(members).encoded(), from: base)
        #expect(edited.count < 600, "\(edited.count) bytes")
    }

    /// Large inputs that differ in one short run are encoded by comparing their ends, not
    /// by indexing the base: wherever the run is, at the start, the end or nowhere.
    @Test func oneShortChangeInALargeDocumentIsCopyAddCopy() throws {
        var random = SeededRandom(seed: 3)
        let base = Data(GeneratedProject.phrase(200_000, using: &random).utf8)
        #expect(base.count >= ObjectDelta.smallChange * 256)
        let middle = base.count / 2
        let cases: [(String, Data)] = [
            ("in the middle", base.prefix(middle) + Data("changed".utf8) + base.dropFirst(middle + 3)),
            ("at the start", Data("new start".utf8) + base.dropFirst(5)),
            ("at the end", base.dropLast(4) + Data("new end".utf8)),
            (
                "inserted",
                base.prefix(middle) + Data(repeating: UInt8(ascii: "x"), count: 3000) + base.dropFirst(middle)
            ),
            ("removed", base.prefix(middle) + base.dropFirst(middle + 3000)),
            ("unchanged", base)
        ]
        for (name, target) in cases {
            let program = try roundTrip(target, from: base)
            #expect(program.count < 3100 + 32, "\(name): \(program.count) bytes")
        }
    }

    /// Large inputs that differ in a few short runs far apart (an `unset`: the record, and
    /// its id in a list elsewhere) are encoded around the runs, without indexing the base,
    /// and any other edits still round-trip through the indexer.
    @Test(arguments: 0..<12)
    func aFewShortChangesFarApartAreEncodedAroundThem(seed: UInt64) throws {
        var random = SeededRandom(seed: 40 + seed)
        let base = Data(GeneratedProject.phrase(200_000, using: &random).utf8)
        var target = base
        // Up to 9 edits (one more than the few-changes path follows), back to front so
        // that offsets stay valid: removals, insertions and replacements of up to 3 KB.
        let count = Int.random(in: 1...9, using: &random)
        let places = (0..<count).map { _ in Int.random(in: 0..<(base.count - 4_000), using: &random) }.sorted(by: >)
        var previous = Int.max
        for place in places where place + 4_000 < previous {
            previous = place
            let length = Int.random(in: 1...3_000, using: &random)
            let inserted = Data(GeneratedProject.phrase(Int.random(in: 0...400, using: &random), using: &random).utf8)
            switch Int.random(in: 0..<3, using: &random) {
            case 0: target.replaceSubrange(place..<(place + length), with: Data())
            case 1: target.replaceSubrange(place..<place, with: inserted)
            default: target.replaceSubrange(place..<(place + length), with: inserted)
            }
        }
        let program = try roundTrip(target, from: base)
        // Each edit costs its bytes and a few opcodes, not a copy of the base.
        #expect(program.count < 9 * 3_200 + 64, "\(count) edits: \(program.count) bytes")
    }

    @Test func aRecordRemovedAndItsIdRemovedFromAListAreTwoCopiesAround() throws {
        var random = SeededRandom(seed: 77)
        let text = GeneratedProject.phrase(300_000, using: &random)
        let base = Data(text.utf8)
        let first = base.count / 5
        let second = base.count * 4 / 5
        let target = base.prefix(first) + base[(first + 350)..<second] + base.dropFirst(second + 40)
        let program = try roundTrip(target, from: base)
        // Magic, sizes and three COPYs: no ADD at all.
        #expect(program.count < 40, "\(program.count) bytes")
    }

    @Test func appliesTheExampleOfFormatSection41() throws {
        let program = Data([
            0x44, 0x4B, 0x44, 0x31, 0x0B, 0x0C, 0x01, 0x00, 0x06, 0x02, 0x06, 0x70, 0x6C, 0x61, 0x6E, 0x65, 0x74
        ])
        #expect(
            try ObjectDelta.apply(program, to: Data("hello world".utf8), expectedSize: 12) == Data("hello planet".utf8))
    }

    /// Programs against the base `hello world` (11 bytes), and what `apply` says of each.
    static let malformed: [(program: [UInt8], expectedSize: Int, message: String)] = [
        ([], 12, "not a delta program: it does not start with DKD1"),
        (Array("DKD2".utf8) + [11, 12], 12, "not a delta program: it does not start with DKD1"),
        (Array("DKD1".utf8) + [0x8B], 12, "the base size (a varint at byte 4) is truncated"),
        (Array("DKD1".utf8) + [11, 0x8C], 12, "the target size (a varint at byte 5) is truncated"),
        (Array("DKD1".utf8) + [11, 12, 0x01, 0x80], 12, "a COPY offset (a varint at byte 7) is truncated"),
        (
            Array("DKD1".utf8) + [11] + Array(repeating: 0x80, count: 9) + [0x01], 12,
            "the target size (a varint at byte 5) is longer than nine bytes"
        ),
        (Array("DKD1".utf8) + [10, 12], 12, "the program is for a base of 10 bytes; the base has 11"),
        (Array("DKD1".utf8) + [11, 12], 13, "the program builds 12 bytes; 13 were expected"),
        (Array("DKD1".utf8) + [11, 12, 0x03], 12, "unknown instruction 0x03 at byte 6"),
        (Array("DKD1".utf8) + [11, 12, 0x01, 0x00, 0x00], 12, "the COPY at byte 6 has length 0"),
        (Array("DKD1".utf8) + [11, 12, 0x02, 0x00], 12, "the ADD at byte 6 has length 0"),
        (
            Array("DKD1".utf8) + [11, 12, 0x01, 0x06, 0x06], 12,
            "the COPY at byte 6 reads 6 bytes from offset 6 of a base of 11"
        ),
        (
            Array("DKD1".utf8) + [11, 12, 0x01] + [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F] + [0x01], 12,
            "the COPY at byte 6 reads 1 bytes from offset 9223372036854775807 of a base of 11"
        ),
        (
            Array("DKD1".utf8) + [11, 12, 0x02, 0x06] + Array("pl".utf8), 12,
            "the ADD at byte 6 needs 6 literal bytes; the program has 2 left"
        ),
        (
            Array("DKD1".utf8) + [11, 12, 0x01, 0x00, 0x0B, 0x02, 0x02] + Array("!!".utf8), 12,
            "the ADD at byte 9 writes 2 bytes after 11; the target has 12"
        ),
        (
            Array("DKD1".utf8) + [11, 12, 0x01, 0x00, 0x0B, 0x01, 0x00, 0x0B], 12,
            "the COPY at byte 9 writes 11 bytes after 11; the target has 12"
        ),
        (Array("DKD1".utf8) + [11, 12, 0x01, 0x00, 0x06], 12, "the program ends after 6 of the target's 12 bytes"),
        (Array("DKD1".utf8) + [11, 12], 12, "the program ends after 0 of the target's 12 bytes"),
        (
            Array("DKD1".utf8) + [11, 12, 0x01, 0x00, 0x06, 0x02, 0x06] + Array("planet".utf8) + [0x00], 12,
            "trailing bytes at byte 17, after the instruction that completes the target"
        ),
        (
            Array("DKD1".utf8) + [11, 0, 0x02, 0x01, 0x21], 0,
            "trailing bytes at byte 6, after the instruction that completes the target"
        ),
        (Array("DKD1".utf8) + [11, 12], -1, "a negative target size (-1) was expected")
    ]

    @Test(arguments: malformed)
    func refusesAMalformedProgramSayingWhy(program: [UInt8], expectedSize: Int, message: String) {
        #expect {
            try ObjectDelta.apply(Data(program), to: Data("hello world".utf8), expectedSize: expectedSize)
        } throws: { error in
            guard let error = error as? DocumentKitError else { return false }
            return error.code == .malformedInput && error.message == "invalid delta program: \(message)"
        }
    }

    @Test func refusesEveryDamagedCopyOfAProgramWithoutCrashing() throws {
        var random = SeededRandom(seed: 3)
        let base = Data(GeneratedProject.phrase(2_000, using: &random).utf8)
        var target = base
        for _ in 0..<5 { Self.edit(&target, using: &random) }
        let program = ObjectDelta.encode(target: target, base: base)
        // Every prefix and every single-byte change either fails cleanly or, if it still
        // is a valid program, builds exactly the expected number of bytes.
        for length in 0..<program.count {
            #expect(throws: DocumentKitError.self) {
                try ObjectDelta.apply(program.prefix(length), to: base, expectedSize: target.count)
            }
        }
        for position in program.indices {
            var damaged = program
            damaged[position] ^= UInt8.random(in: 1...255, using: &random)
            let rebuilt = refusing(DocumentKitError.self, "byte \(position) changed") {
                try ObjectDelta.apply(damaged, to: base, expectedSize: target.count)
            }
            if let rebuilt {
                #expect(rebuilt.count == target.count)
            }
        }
    }

    @Test(.enabled(if: ExternalTool.python3.isAvailable, "python3 is not installed"))
    func theReferenceDecoderInFormatRebuildsTheTargetByteForByte() throws {
        let directory = try TemporaryDirectory()
        let format = try String(contentsOf: Self.repositoryRoot.appendingPathComponent("FORMAT.md"), encoding: .utf8)
        let section = try #require(format.range(of: "### 4.1 Delta programs")).upperBound
        let code = try #require(format.range(of: "```python\n", range: section..<format.endIndex))
        let end = try #require(format.range(of: "```", range: code.upperBound..<format.endIndex))
        let decoder = String(format[code.upperBound..<end.lowerBound])

        var random = SeededRandom(seed: 11)
        let base = GeneratedProject.document(taskCount: 300, seed: 5).encoded()
        var target = base
        for _ in 0..<20 { Self.edit(&target, using: &random) }
        for (name, data) in [
            ("base", base), ("target", target), ("program", ObjectDelta.encode(target: target, base: base)),
            ("unrelated", ObjectDelta.encode(target: Fixtures.noise(5_000), base: base))
        ] {
            try Fixtures.write(data, to: name, in: directory.url)
        }
        let result = try ExternalTool.python(
            decoder + """

                import sys
                folder = sys.argv[1]
                read = lambda name: open(f"{folder}/{name}", "rb").read()
                open(f"{folder}/rebuilt", "wb").write(apply_delta(read("program"), read("base"), len(read("target"))))
                open(f"{folder}/noise", "wb").write(apply_delta(read("unrelated"), read("base"), 5000))
                """, [directory.url.path])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(try Data(contentsOf: directory.url.appendingPathComponent("rebuilt")) == target)
        #expect(try Data(contentsOf: directory.url.appendingPathComponent("noise")) == Fixtures.noise(5_000))
    }

    static let repositoryRoot = Fixtures.repository

    /// Text-like bytes (words, as documents are) mixed with runs of noise.
    static func sample(count: Int, using random: inout SeededRandom) -> Data {
        var data = Data()
        while data.count < count {
            if Bool.random(using: &random) {
                data += Data(GeneratedProject.phrase(Int.random(in: 1...200, using: &random), using: &random).utf8)
            } else {
                data += Fixtures.noise(Int.random(in: 1...500, using: &random), seed: random.next())
            }
        }
        return data.prefix(count)
    }

    /// One random edit: an insertion, a deletion, a replacement, or a range moved or copied.
    static func edit(_ data: inout Data, using random: inout SeededRandom) {
        let position = Int.random(in: 0...data.count, using: &random)
        let length = min(Int.random(in: 0...2_000, using: &random), data.count - position)
        let range = data.startIndex + position..<data.startIndex + position + length
        switch Int.random(in: 0..<5, using: &random) {
        case 0: data.insert(contentsOf: sample(count: length + 1, using: &random), at: range.lowerBound)
        case 1: data.removeSubrange(range)
        case 2:
            data.replaceSubrange(range, with: sample(count: Int.random(in: 0...100, using: &random), using: &random))
        case 3:
            let moved = data[range]
            data.removeSubrange(range)
            data.insert(contentsOf: moved, at: data.startIndex + Int.random(in: 0...data.count, using: &random))
        default:
            data.insert(contentsOf: data[range], at: data.startIndex + Int.random(in: 0...data.count, using: &random))
        }
    }
}
