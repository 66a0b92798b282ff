import Foundation
import Testing

@testable import DocumentKit
@testable import SampleProject

/// A write that docctl makes: into a bundle in place, rewriting it, or creating an output.
enum WriteOperation: String, CaseIterable, CustomTestStringConvertible {
    /// `set` on a bundle with a 2 MB blob: appended in place.
    case setInPlace
    /// `set` on a new, small bundle: its superseded bytes would pass a third, so rewritten.
    case setRewrite
    /// `prune`: always a rewrite.
    case prune
    /// `attach` of a 1 MB file: appended in place.
    case attach
    case exportFile, exportFolder, importArchive, new

    var testDescription: String { rawValue }

    /// docctl's arguments, for bundles in `folder` and outputs in `outputFolder` (paths
    /// relative to the scene's root; outputs go beside the bundles by default).
    func arguments(in folder: String, outputsIn outputFolder: String? = nil) -> [String] {
        let output = outputFolder ?? folder
        return switch self {
        case .setInPlace: ["set", "\(folder)/blob.dkproj", "name", "changed"]
        case .setRewrite: ["set", "\(folder)/fresh.dkproj", "name", "changed"]
        case .prune: ["prune", "\(folder)/blob.dkproj", "--keep", "1"]
        case .attach: ["attach", "\(folder)/blob.dkproj", "more.bin", "--as", "thumbnail"]
        case .exportFile: ["export", "\(folder)/blob.dkproj", "--format", "zip", "-o", "\(output)/out.zip"]
        case .exportFolder: ["export", "\(folder)/blob.dkproj", "--format", "dir", "-o", "\(output)/outdir"]
        case .importArchive: ["import", "export.zip", "-o", "\(output)/imported.dkproj"]
        case .new: ["new", "\(output)/new.dkproj", "--name", "New"]
        }
    }

    /// The file the error must name: the bundle written, or the output.
    func named(in folder: String, outputsIn outputFolder: String? = nil) -> String {
        let output = outputFolder ?? folder
        return switch self {
        case .setInPlace, .prune, .attach: "\(folder)/blob.dkproj"
        case .setRewrite: "\(folder)/fresh.dkproj"
        case .exportFile: "\(output)/out.zip"
        case .exportFolder: "\(output)/outdir"
        case .importArchive: "\(output)/imported.dkproj"
        case .new: "\(output)/new.dkproj"
        }
    }

    /// Whether it creates a new file rather than writing a bundle that exists.
    var createsOutput: Bool { [.exportFile, .exportFolder, .importArchive, .new].contains(self) }

    /// A file-size limit (`ulimit -f`, in blocks of 1,024 bytes) that this write passes in
    /// its middle, for the bundles of `scene`.
    func fileSizeLimit(in scene: WriteScene) throws -> Int {
        let blob = try scene.size(of: "blob.dkproj")
        return switch self {
        // Less than a block beyond the bundle's end: the append fails after writing some.
        case .setInPlace: (blob + 1023) / 1024
        // The first quarter of the 1 MB attachment goes in.
        case .attach: (blob + 1023) / 1024 + 256
        case .prune, .exportFile, .exportFolder, .importArchive: blob / 2048
        // A new bundle or a rewritten small one is 2 KB or more.
        case .setRewrite, .new: 1
        }
    }
}

/// Files for one test of writes: in `work` (the folder written to, whose writes may be
/// refused) a bundle with a 2 MB blob and a new small one; beside it the attachment and an
/// export to import. Every file can be recorded, to prove afterwards that nothing changed.
final class WriteScene {
    let directory: TemporaryDirectory
    /// The folder under test, `work` or a mount there.
    let work: URL
    private(set) var mount: ScratchMount?

    /// Makes the files, in a tmpfs of `mountBytes` mounted at `work` when that is given.
    init(mountBytes: Int? = nil) throws {
        directory = try TemporaryDirectory("write-scene")
        if let mountBytes {
            let mount = try ScratchMount(in: directory, name: "work", bytes: mountBytes)
            self.mount = mount
            work = mount.url
        } else {
            work = directory.url.appendingPathComponent("work")
            try FileManager.default.createDirectory(at: work, withIntermediateDirectories: false)
        }
        let metadata = SaveMetadata(
            author: "test", message: "setup", created: Date(timeIntervalSince1970: 1_767_225_600))
        let blobFile = try Fixtures.write(Fixtures.noise(2_000_000, seed: 5), to: "cover.bin", in: directory.url)
        let blob = work.appendingPathComponent("blob.dkproj")
        // 50 tasks: a saved document is several pages, so an append needs more than the slack of the file's last page.
        _ = try BundleEdits.create(
            at: blob, type: Project.self, json: GeneratedProject.document(taskCount: 50, seed: 3), metadata: metadata)
        _ = try BundleEdits.attach(blobFile, at: JSONPath(parsing: "thumbnail"), in: blob, metadata: metadata)
        _ = try BundleEdits.set(.string("second"), at: JSONPath(parsing: "name"), in: blob, metadata: metadata)
        try FileManager.default.removeItem(at: blobFile)
        _ = try BundleEdits.create(
            at: work.appendingPathComponent("fresh.dkproj"), type: Project.self,
            json: GeneratedProject.document(taskCount: 2, seed: 4), metadata: metadata)
        try Fixtures.write(Fixtures.noise(1_000_000, seed: 6), to: "more.bin", in: directory.url)
        _ = try BundleExporter.export(
            blob, format: .zip, to: directory.url.appendingPathComponent("export.zip"), replace: false)
    }

    /// The size of `name` in `work`.
    func size(of name: String) throws -> Int {
        try FileManager.default.attributesOfItem(atPath: work.appendingPathComponent(name).path)[.size] as! Int
    }

    /// Every file below the root, by path, with its SHA-256 (folders with none).
    func contents() throws -> [String: String] {
        var found: [String: String] = [:]
        let root = directory.url.resolvingSymlinksInPath().path
        let enumerator = FileManager.default.enumerator(atPath: root)
        while let path = enumerator?.nextObject() as? String {
            var isFolder: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: root + "/" + path, isDirectory: &isFolder)
            found[path] =
                isFolder.boolValue ? "folder" : try Fixtures.digest(of: URL(fileURLWithPath: root + "/" + path))
        }
        return found
    }

    /// Runs docctl in the root.
    func docctl(_ arguments: [String], shell: String? = nil) throws -> ExternalTool.Result {
        guard let shell else { return try Run.docctl(arguments, in: directory.url) }
        return try ExternalTool(name: "sh").run(
            ["-c", "\(shell) && exec \"$0\" \"$@\"", Run.docctlURL.path] + arguments,
            environment: Run.environment, in: directory.url)
    }

    /// Runs `operation` under whatever refuses it and checks the refusal: one line naming
    /// the file, the given status and `reason`; every file byte-identical; nothing new.
    func expectRefused(
        _ operation: WriteOperation, in folder: String = "work", outputsIn outputFolder: String? = nil,
        shell: String? = nil,
        status: Int32, reason: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let before = try contents()
        let result = try docctl(operation.arguments(in: folder, outputsIn: outputFolder), shell: shell)
        expectFailure(
            result, status: status, containing: "error: \(operation.named(in: folder, outputsIn: outputFolder)): ",
            sourceLocation: sourceLocation)
        #expect(result.standardError.contains(reason), "\(result.standardError)", sourceLocation: sourceLocation)
        let after = try contents()
        #expect(
            after == before,
            """
            changed: \
            \(Set(after.map { "\($0.key) \($0.value)" }).symmetricDifference(before.map { "\($0.key) \($0.value)" }).sorted())
            """,
            sourceLocation: sourceLocation)
    }
}
