import Foundation
import Testing

/// The rules of the layers that the compiler does not check (DESIGN.md, "Layers"), checked
/// on the sources themselves: which target may import libarchive, which may read the
/// environment, and where system calls are made.
@Suite struct SourceRulesTests {
    static let sources = Fixtures.repository.appendingPathComponent("Sources")
    /// The library's targets: what an app links.
    static let libraryTargets = [
        "DocumentKitCore", "DocumentKitArchive", "DocumentKitJSON", "DocumentKitBundle", "DocumentKit", "DocumentKitS3",
        "SampleProject"
    ]

    /// Each Swift file of `target`, with its text (comments removed) and its lines.
    static func files(of target: String) throws -> [(path: String, code: String)] {
        let folder = sources.appendingPathComponent(target)
        guard let walker = FileManager.default.enumerator(atPath: folder.path) else { return [] }
        return try walker.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }.sorted().map { name in
            let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            let code = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
                line.range(of: "//").map { String(line[..<$0.lowerBound]) } ?? String(line)
            }.joined(separator: "\n")
            return ("\(target)/\(name)", code)
        }
    }

    /// The lines of the library's files matching `pattern`, as `file: line`.
    static func matches(_ pattern: String, in targets: [String]) throws -> [String] {
        let expression = try NSRegularExpression(pattern: pattern)
        return try targets.flatMap { try files(of: $0) }.flatMap { file in
            file.code.split(separator: "\n").filter { line in
                expression.firstMatch(in: String(line), range: NSRange(line.startIndex..., in: line)) != nil
            }.map { "\(file.path): \($0.trimmingCharacters(in: .whitespaces))" }
        }
    }

    @Test func everyTargetIsChecked() throws {
        let targets = try FileManager.default.contentsOfDirectory(atPath: Self.sources.path).sorted()
        #expect(
            targets == [
                "CArchive", "DocumentKit", "DocumentKitArchive", "DocumentKitBundle", "DocumentKitCLI",
                "DocumentKitCore", "DocumentKitJSON", "DocumentKitS3", "SampleProject", "dkbench", "docctl",
                "docctl-s3", "notectl"
            ])
        #expect(try Self.files(of: "DocumentKitBundle").count > 20, "the sources are where the tests look")
    }

    /// What each target may import (DESIGN.md, "Layers"), beside the system's modules. The
    /// package's dependencies let a target import what its dependencies depend on, too (the
    /// CLI could import the store, or the sample type libarchive): the layers hold only if
    /// each target names no more than this.
    static let allowedImports: [String: Set<String>] = [
        "DocumentKitCore": ["Crypto", "Synchronization"],
        "DocumentKitArchive": ["DocumentKitCore", "CArchive"],
        "DocumentKitJSON": ["DocumentKitCore"],
        "DocumentKitBundle": ["DocumentKitCore", "DocumentKitArchive", "DocumentKitJSON"],
        "DocumentKit": ["DocumentKitCore", "DocumentKitArchive", "DocumentKitJSON", "DocumentKitBundle", "Crypto"],
        "SampleProject": ["DocumentKit"],
        "DocumentKitS3": ["DocumentKit", "DocumentKitCore", "AsyncHTTPClient", "NIOCore", "NIOHTTP1", "Crypto"],
        "DocumentKitCLI": ["DocumentKit", "ArgumentParser"],
        "docctl": ["DocumentKitCLI", "SampleProject"],
        "docctl-s3": ["DocumentKitCLI", "DocumentKitS3", "SampleProject"],
        "notectl": ["DocumentKit", "DocumentKitCLI"],
        "dkbench": ["DocumentKit", "SampleProject"]
    ]

    @Test func eachTargetImportsOnlyTheLayersBelowIt() throws {
        let system: Set<String> = ["Foundation", "FoundationXML", "Glibc", "Darwin"]
        let statement = try NSRegularExpression(
            pattern: #"^\s*(?:@[\w]+(?:\([^)]*\))?\s+)*import\s+(?:(?:struct|enum|class|func|protocol)\s+)?(\w+)"#,
            options: .anchorsMatchLines)
        var seen: Set<String> = []
        for (target, allowed) in Self.allowedImports {
            for file in try Self.files(of: target) {
                let range = NSRange(file.code.startIndex..., in: file.code)
                for match in statement.matches(in: file.code, range: range) {
                    let module = String(file.code[Range(match.range(at: 1), in: file.code)!])
                    seen.insert(module)
                    #expect(system.contains(module) || allowed.contains(module), "\(file.path) imports \(module)")
                }
            }
        }
        #expect(
            seen.isSuperset(of: ["DocumentKitBundle", "CArchive", "ArgumentParser"]),
            "the pattern finds the imports: \(seen)")
        let targets = try FileManager.default.contentsOfDirectory(atPath: Self.sources.path).filter { $0 != "CArchive" }
        #expect(Set(targets) == Set(Self.allowedImports.keys), "every target has its row")
    }

    @Test func onlyTheArchiveLayerImportsLibarchive() throws {
        let others = try FileManager.default.contentsOfDirectory(atPath: Self.sources.path).filter {
            $0 != "DocumentKitArchive" && $0 != "CArchive"
        }
        #expect(try Self.matches(#"^\s*(@\w+\s+)?import\s+CArchive\b"#, in: others) == [])
        #expect(try Self.matches(#"^\s*import\s+CArchive\b"#, in: ["DocumentKitArchive"]).count > 3)
    }

    @Test func libarchiveIsCalledInItsWrapperAlone() throws {
        // Within the archive layer, libarchive is called through its wrapper alone (issue
        // 26): LibArchive/, a file per concern, the way swift-system wraps system calls.
        let wrapper = "DocumentKitArchive/LibArchive/"
        let calls = try Self.matches(#"\barchive_[a-z_]+\("#, in: ["DocumentKitArchive"])
        let imports = try Self.matches(#"^\s*(@\w+\s+)?import\s+CArchive\b"#, in: ["DocumentKitArchive"])
        let callsOutside = calls.filter { !$0.hasPrefix(wrapper) }
        let importsOutside = imports.filter { !$0.hasPrefix(wrapper) }
        #expect(callsOutside == [], "\(callsOutside)")
        #expect(importsOutside == [], "\(importsOutside)")
        // The patterns find the calls and imports where they are.
        let callers = Set(calls.map { $0.components(separatedBy: ":")[0] })
        #expect(
            callers.isSuperset(of: [
                "\(wrapper)LibArchive.swift", "\(wrapper)LibArchiveReader.swift", "\(wrapper)LibArchiveWriter.swift",
                "\(wrapper)LibArchiveEntry.swift"
            ]), "\(callers)")
        #expect(calls.count > 50, "\(calls.count) calls")
        #expect(imports.count > 3, "\(imports)")
    }

    @Test func theLibraryReadsNoEnvironmentAndStartsNoProgram() throws {
        // The environment is the program's to read (docctl: DocumentKitCLI); an editor is
        // the program's to start.
        let reads = try Self.matches(
            #"ProcessInfo\.processInfo\.environment|\bgetenv\(|\benviron\b|\bsetenv\("#, in: Self.libraryTargets)
        #expect(reads == [], "\(reads)")
        let starts = try Self.matches(
            #"\bposix_spawn|\bProcess\(\)|(?<![\w.])system\(|\bexecv"#,
            in: Self.libraryTargets.filter { $0 != "DocumentKitCore" })
        #expect(starts == [], "\(starts)")
        // The library names no variable: the program maps its variables to the library's settings.
        let names = try Self.matches(
            #"\bEDITOR\b|\bVISUAL\b|XDG_CONFIG_HOME|SOURCE_DATE_EPOCH|DOCUMENTKIT_"#, in: Self.libraryTargets)
        #expect(names == [], "\(names)")
    }

    @Test func systemCallsAreMadeInTheCoreAlone() throws {
        // Every call by path or descriptor goes through DocumentKitCore's FileSystem and
        // Processes folders, which retry on EINTR and name the file in their errors.
        let calls =
            #"(?<![\w.]|func )(open|openat|close|pread|pwrite|fsync|fdatasync|ftruncate|rename|renameat|unlink|unlinkat|flock|fcntl|mmap|munmap|madvise|lseek|fstat|stat|lstat|mkdir|rmdir|symlink|readlink|chmod|fchmod|fchown|getpwuid|usleep|access|realpath|copy_file_range|posix_fallocate|opendir|readdir|posix_spawn|waitpid|dup2|pipe)\("#
        let outside =
            Self.libraryTargets.filter { $0 != "DocumentKitCore" } + ["DocumentKitCLI", "docctl", "notectl", "dkbench"]
        let found = try Self.matches(calls, in: outside)
        #expect(found == [], "\(found)")
        #expect(
            try Self.matches(calls, in: ["DocumentKitCore"]).count > 10, "the pattern finds the calls where they are")
        // Foundation's file system calls too: FileManager, and reading a file whole by its
        // path or URL (Core's FileTree and OpenFile make them).
        let foundation = #"\bFileManager\b|contentsOfFile:|\bString\(contentsOf|\bData\(contentsOf"#
        let foundationCalls = try Self.matches(foundation, in: outside)
        #expect(foundationCalls == [], "\(foundationCalls)")
        #expect(
            try Self.matches(foundation, in: ["DocumentKitCore"]).count > 5, "the pattern finds them where they are")
    }

    @Test func aFailedSystemCallIsASystemErrorAndAnArchiveErrorMeansAMalformedArchive() throws {
        // One error for one failure (issue 26, item 4): Core's file calls throw SystemError
        // (the errno, the operation, the file); ArchiveError is the archive layer's word for
        // bytes that are not a valid archive, and Core never uses it.
        let core = try Self.files(of: "DocumentKitCore").filter { !$0.path.hasPrefix("DocumentKitCore/Errors/") }
        let archiveErrorsInCore = core.filter { $0.code.contains("ArchiveError") }.map(\.path)
        #expect(archiveErrorsInCore == [], "\(archiveErrorsInCore)")
        #expect(
            try Self.matches(#"SystemError\("#, in: ["DocumentKitCore"]).count > 3,
            "the pattern finds Core's system errors where they are")
        // No archive error stands for a failed system call: every one that does not say
        // what is wrong with the archive's bytes is one of these kinds.
        let kinds = try Self.matches(#"ArchiveError\(\s*\.(\w+)"#, in: Self.libraryTargets).compactMap { line in
            line.firstMatch(of: #/ArchiveError\(\s*\.(\w+)/#).map { String($0.1) }
        }
        let archiveKinds: Set<String> = [
            "notAnArchive", "truncated", "malformed", "unsupported", "unsafeEntry", "duplicateEntry", "limitExceeded",
            "checksumMismatch", "closed"
        ]
        #expect(Set(kinds).isSubset(of: archiveKinds), "\(Set(kinds).subtracting(archiveKinds))")
        #expect(kinds.count > 20, "the pattern finds the archive errors where they are")
    }

    @Test func configurationIsAValueAndNoTargetHasUncheckedGlobals() throws {
        // What the program chooses reaches the library in a DocumentKitConfiguration (issue
        // 26): no target keeps a setting in a global the compiler cannot check.
        let all = try FileManager.default.contentsOfDirectory(atPath: Self.sources.path).filter { $0 != "CArchive" }
        let unchecked = try Self.matches(#"nonisolated\(unsafe\)"#, in: all)
        #expect(unchecked == [], "\(unchecked)")
        let knobs = try Self.matches(
            #"\b(DocumentDates\.fixedNow|DocumentBundle\.lockTimeout|BundleEdits\.writeSchema|DocumentTypeRegistry|ContentTypeRegistry\.shared)\b"#,
            in: all)
        #expect(knobs == [], "\(knobs)")
    }

    @Test func eachPublicOrPackageTypeLivesInAFileNamedAfterIt() throws {
        // A file's name says what it declares (issue 26): `Type.swift`, or `Type+Concern.swift`
        // for an extension; a type others use is never found in a file named after another.
        let declaration = try NSRegularExpression(
            pattern: #"^((?:(?:public|package|internal|private|fileprivate|final|indirect|@\w+(?:\([^)]*\))?)\s+)*)"#
                + #"(?:struct|class|enum|protocol|actor)\s+(\w+)"#,
            options: .anchorsMatchLines)
        var misplaced: [String] = []
        var checked = 0
        let targets = try FileManager.default.contentsOfDirectory(atPath: Self.sources.path).filter { $0 != "CArchive" }
        for target in targets {
            for file in try Self.files(of: target) {
                let name = (file.path as NSString).lastPathComponent.dropLast(".swift".count)
                let base = String(name.prefix { $0 != "+" })
                let range = NSRange(file.code.startIndex..., in: file.code)
                for match in declaration.matches(in: file.code, range: range) {
                    let modifiers = String(file.code[Range(match.range(at: 1), in: file.code)!])
                    guard modifiers.contains("public") || modifiers.contains("package") else { continue }
                    checked += 1
                    let type = String(file.code[Range(match.range(at: 2), in: file.code)!])
                    if type != base { misplaced.append("\(file.path): \(type)") }
                }
            }
        }
        #expect(misplaced == [], "\(misplaced)")
        #expect(checked > 150, "the pattern finds the declarations: \(checked)")
    }

    @Test func noSourceLineIsWiderThan120Columns() throws {
        // swift-format (.swift-format, checked by `swift format lint --strict` in CI) keeps code
        // within 120 columns but leaves comments and string literals alone: those are split
        // by hand, a long literal as a multi-line one with `\` at its line ends.
        let targets = try FileManager.default.contentsOfDirectory(atPath: Self.sources.path).filter { $0 != "CArchive" }
        var wide: [String] = []
        for target in targets {
            let folder = Self.sources.appendingPathComponent(target)
            for name in FileManager.default.enumerator(atPath: folder.path)!.compactMap({ $0 as? String })
            where name.hasSuffix(".swift") {
                let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
                for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
                where line.count > 120 {
                    wide.append("\(target)/\(name):\(number + 1): \(line.count) columns")
                }
            }
        }
        #expect(wide == [], "\(wide)")
    }

    @Test func everySaveOfAnExistingBundleGoesThroughTheSaver() throws {
        // One place takes the lock, checks the head and writes a version (issue 25): the
        // writer's request is made in SaveContent and written in BundleSaver. New files
        // (import, pack, the format-3 copy a push of an older bundle is made from) are
        // written whole, with no lock and no head to check.
        let targets = Self.libraryTargets.filter { $0 != "DocumentKitBundle" }
        let requests = try Self.matches(#"BundleWriter\.Request\("#, in: targets)
        #expect(
            requests.map { $0.components(separatedBy: ":")[0] } == ["DocumentKit/Saving/SaveContent.swift"],
            "\(requests)")
        let writes = try Self.matches(#"BundleWriter\.(write|fastForward|writeState)\("#, in: targets)
        #expect(
            Set(writes.map { $0.components(separatedBy: ":")[0] }) == ["DocumentKit/Saving/BundleSaver.swift"],
            "\(writes)")
        let rewrites = try Self.matches(#"BundleWriter\.writeContents\("#, in: targets).map {
            $0.components(separatedBy: ":")[0]
        }
        #expect(
            Set(rewrites) == [
                "DocumentKit/Saving/BundleSaver.swift", "DocumentKit/Remotes/OCFLImporter.swift",
                "DocumentKit/Remotes/OCFLImporter+Missing.swift", "DocumentKit/Export/BagIt/BagImporter.swift",
                "DocumentKit/Maintenance/BundlePacker.swift", "DocumentKit/Remotes/RemotePusher.swift"
            ], "\(rewrites)")
    }
}
