import DocumentKit
import Foundation
import SampleProject

// dkbench: makes the long histories bench/history.sh measures, through the library in one
// process (a docctl process per save would take hours at 100,000 versions).
//
//     dkbench history BUNDLE VERSIONS TIMES [TASKS]
//
// adds one-title saves to BUNDLE (a project of TASKS tasks, 25,000 unless given, as
// bench/make_corpus.py or make_project.py makes it and docctl import imports it) until it
// holds VERSIONS versions, each save renaming one task spread over the document, dated
// SOURCE_DATE_EPOCH-style from 2026-01-01, exactly as the script's docctl loop did; each
// save's seconds go to the TSV file TIMES. The bundle keeps its format (a format-3 bundle
// stays format 3).

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("error: \(message)\n".utf8))
    exit(64)
}

let arguments = CommandLine.arguments.dropFirst()
guard arguments.count == 4 || arguments.count == 5, arguments.first == "history",
    let versions = Int(arguments[arguments.startIndex + 2]), versions >= 1,
    let taskCount = arguments.count == 5 ? Int(arguments[arguments.startIndex + 4]) : 25_000, taskCount >= 1
else {
    fail("usage: dkbench history BUNDLE VERSIONS TIMES [TASKS]")
}
let bundle = URL(fileURLWithPath: arguments[arguments.startIndex + 1])
let times = URL(fileURLWithPath: arguments[arguments.startIndex + 3])
var configuration = DocumentKitConfiguration()
configuration.documentTypes = [Project.self]
DocumentKitConfiguration.bootstrap(configuration)
guard FileTree.createEmptyFile(times.path),
    let log = FileHandle(forWritingAtPath: times.path)
else {
    fail("cannot write \(times.path)")
}

do {
    let start = try DocumentBundle(contentsOf: bundle).headVersion.number
    for save in start..<versions {
        let task = (save * 7919) % taskCount
        let id = String(format: "%08x-0000-4000-8000-%012x", task, task)
        let metadata = SaveMetadata(
            author: "bench", message: "Save \(save)",
            created: Date(timeIntervalSince1970: TimeInterval(1_767_225_600 + save)))
        let began = Date()
        _ = try BundleEdits.set(
            .string("Renamed in save \(save)"), at: try JSONPath(parsing: "tasks[id=\(id)].title"), in: bundle,
            metadata: metadata)
        log.write(Data(String(format: "%d\t%.4f\n", save, Date().timeIntervalSince(began)).utf8))
        if save % 1_000 == 0 { FileHandle.standardError.write(Data("\(save) versions\n".utf8)) }
    }
} catch {
    fail("\(bundle.path): \(error)")
}
