import Foundation

/// Reads a project back from a remote (FORMAT.md §11): whole into a new bundle (`clone`),
/// or what a bundle lacks into a temporary copy beside it that a pull then takes from
/// (`withRemoteCopy`).
/// Every file is checked against the object's SHA-512 before it is used, so a remote
/// whose bytes do not match their digests, or whose head names a version it does not
/// hold, is refused with nothing written.
public enum RemoteFetcher {
    /// Rebuilds the project whose OCFL object id is `objectID` (or, when `nil`, the only one
    /// the remote holds) into a new bundle at `output`, fetching up to `jobs` files at once
    /// (``TransferQueue``).
    public static func clone(
        _ remote: any RemoteStore, objectID: String? = nil, to output: URL, replace: Bool = false,
        jobs: Int = TransferQueue.defaultJobs
    ) throws -> OCFLImporter.Result {
        try fetching {
            try OCFLImporter.importObject(
                at: try objectPath(in: remote, objectID: objectID), in: remote, to: output, replace: replace, jobs: jobs
            )
        }
    }

    /// Runs `body`, a rebuild from the remote, as a `reading` phase that counts the bytes
    /// fetched as they arrive (the checks of what arrived count nothing, and the write of
    /// the bundle is a phase of its own): a slow remote shows what it delivers.
    private static func fetching<T>(_ body: () throws -> T) throws -> T {
        try ProgressMeter.phase(.reading, counting: .read, totalBytes: nil, body)
    }

    /// Rebuilds the project as ``clone(_:objectID:to:replace:jobs:)`` does, into a new bundle in
    /// `folder` named after the project (`Garden.dkproj`, see `ProjectFileName`); returns
    /// the bundle's location with what was made. An existing file of that name is refused
    /// unless `replace`.
    public static func clone(
        _ remote: any RemoteStore, objectID: String? = nil, intoFolder folder: URL,
        replace: Bool = false, jobs: Int = TransferQueue.defaultJobs
    ) throws -> (output: URL, result: OCFLImporter.Result) {
        // The placeholder name only places the scratch folder: the bundle's name comes from its document.
        try fetching {
            try OCFLImporter.importObject(
                at: try objectPath(in: remote, objectID: objectID), in: remote,
                to: folder.appendingPathComponent("clone.dkbundle"), replace: replace, jobs: jobs,
                naming: ProjectFileName.forDocument(_:contentType:))
        }
    }

    /// What ``clone(_:objectID:to:replace:jobs:)`` would make (``OCFLImporter/plannedImport(at:in:to:replace:)``),
    /// refusing what the clone would refuse first: no such project, an existing output.
    public static func plannedClone(
        _ remote: any RemoteStore, objectID: String? = nil, to output: URL,
        replace: Bool = false
    ) throws -> (objectID: String, versions: Int) {
        try OCFLImporter.plannedImport(
            at: try objectPath(in: remote, objectID: objectID), in: remote, to: output, replace: replace)
    }

    /// The folder of the object `objectID` on the remote, or of its only object.
    private static func objectPath(in remote: any RemoteStore, objectID: String?) throws -> String {
        try RemoteRoot.requireRoot(remote)
        let objectPath: String
        if let objectID {
            objectPath = OCFLStorageRoot.objectPath(for: objectID)
            guard try remote.size("\(objectPath)/inventory.json") != nil else {
                throw DocumentKitError(
                    .missingInput, "holds no project with the object id \(objectID)", path: remote.displayPath)
            }
        } else {
            let paths = try RemoteRoot.objectPaths(remote).filter { try remote.size("\($0)/inventory.json") != nil }
            guard let only = paths.first else {
                throw DocumentKitError(.missingInput, "holds no project yet (push one first)", path: remote.displayPath)
            }
            guard paths.count == 1 else {
                let projects = RemoteRoot.describeProjects(remote, at: paths)
                throw DocumentKitError(
                    .usage, "holds \(paths.count) projects: \(projects.joined(separator: "; "))",
                    path: remote.displayPath,
                    remedy: .chooseProject)
            }
            objectPath = only
        }
        return objectPath
    }

    /// Writes what the remote's copy of the project of the bundle at `bundleURL` holds and
    /// the bundle lacks into a temporary bundle beside it (``OCFLImporter/importMissingVersions(at:in:of:to:jobs:)``:
    /// the new versions and the files they bring, the remote's other versions listed as
    /// pruned), and runs `body` with that copy, which is removed after. A pull from it
    /// costs the change, not the project. Up to `jobs` files are fetched at once.
    public static func withRemoteCopy<T>(
        of bundleURL: URL, from remote: any RemoteStore, jobs: Int = TransferQueue.defaultJobs,
        _ body: (URL) throws -> T
    ) throws -> T {
        let local = try DocumentBundle(contentsOf: bundleURL)
        try RemoteRoot.requireRoot(remote)
        let object = try RemoteRoot.requireProjectObject(of: local, in: remote)
        let staging = try StagingFolder(beside: bundleURL)
        let copy = staging.url.appendingPathComponent(
            "remote" + (bundleURL.pathExtension.isEmpty ? "" : ".\(bundleURL.pathExtension)"))
        try fetching {
            try OCFLImporter.importMissingVersions(at: object.path, in: remote, of: local, to: copy, jobs: jobs)
        }
        return try withExtendedLifetime(staging) { try body(copy) }
    }
}
