import DocumentKit
import Foundation
import FuzzSupport
import FuzzerDriver
import SampleProject

// libFuzzer target: bytes as a bundle file, opened the ways docctl opens one. Any input
// must end in a result or a thrown error: a crash, a hang past `-timeout` or memory past
// `-rss_limit_mb` is a finding.

/// Where each input is written, since every way of opening a bundle takes a file: the
/// input is what a user's damaged or hostile `.dkproj` would be. Under /dev/shm when it
/// exists, so that writing it costs no disk I/O; one file per process, so that parallel
/// fuzzing jobs (`-jobs`, `-fork`) do not share it; removed after each input.
private let inputURL: URL = {
    let shm = URL(fileURLWithPath: "/dev/shm", isDirectory: true)
    let folder = FileManager.default.fileExists(atPath: shm.path) ? shm : FileManager.default.temporaryDirectory
    return folder.appendingPathComponent("documentkit-fuzz-\(getpid()).dkproj")
}()

/// One input; libFuzzer calls it for every input it tries.
func testOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = Data(UnsafeBufferPointer(start: start, count: count))
    do {
        try bytes.write(to: inputURL)
    } catch {
        fatalError("cannot write the fuzz input to \(inputURL.path): \(error)")
    }
    // `docctl validate --deep`: every check, every object, every version.
    _ = refusing("validate --deep") { try BundleValidator.validate(inputURL, deep: true) }
    // `docctl cat`: the head document by the fast path that skips most of the manifest.
    if let head = refusing("headDocument", { try DocumentBundle.headDocument(of: inputURL) }) {
        _ = refusing("parse of the head") { try JSONValue.parse(head) }
    }
    // `docctl log`: every version's summary.
    _ = refusing("log") { try BundleSummary.log(of: inputURL) }
    // A full open: the head read as its type, then every version by its name.
    if let bundle = refusing("open", { try DocumentBundle(contentsOf: inputURL) }) {
        _ = refusing("read as Project") { try bundle.read(Project.self) }
        for version in (refusing("the history") { try bundle.manifest.versions } ?? []).prefix(64) {
            guard
                let named = refusing("version \(version.number)", { try bundle.version(named: String(version.number)) })
            else { continue }
            _ = refusing("document of version \(version.number)") { try bundle.documentData(of: named) }
        }
    }
    unlink(inputURL.path)
    return 0
}

var argumentCount = CommandLine.argc
var arguments = Optional(CommandLine.unsafeArgv)
exit(LLVMFuzzerRunDriver(&argumentCount, &arguments, testOneInput))
