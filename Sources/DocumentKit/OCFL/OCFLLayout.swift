import Foundation

/// How the versions of an OCFL object hold a project (FORMAT.md §10). An object may hold
/// both: versions written by releases before the history layout, then the history layout
/// from the first push that met it; every reader goes by the head version's layout.
enum OCFLLayout: Equatable {
    /// One OCFL version per bundle version: its files as its tree holds them, and its record
    /// as `documentkit/version.json`. What releases before 0.4 wrote.
    case versionPerVersion
    /// One OCFL version per push, whose files are the bundle's own history, its entries
    /// but `document.json` and `state.json`: `mimetype`, `manifest.json`, the segments
    /// `history/…` and the objects stored alone `objects/…` (FORMAT.md §12). A version's
    /// files are the whole history; a push stores only the files the object lacks.
    case history

    /// The layout of one version: a record file means one bundle version.
    static func of(_ version: OCFLInventory.Version) -> OCFLLayout {
        version.state.values.contains { $0.contains(OCFLVersionRecord.path) } ? .versionPerVersion : .history
    }

    /// The logical paths of the history layout.
    static let manifestPath = BundleEntry.manifest
    static let mimetypePath = BundleEntry.mimetype
    /// Where a version asked for one (`docctl archive --with-html`) holds the access copy of
    /// the head it brings: the HTML site, beside the history and no part of it.
    static let accessFolder = "access"

    /// Whether `path` is a file of an access copy, which no reader of the history reads and
    /// no later version names unless it was asked for one of its own.
    static func isAccessCopy(_ path: String) -> Bool {
        path.hasPrefix(accessFolder + "/")
    }
}

extension OCFLInventory {
    /// The layout of the head version; `nil` for an inventory of no version yet.
    var headLayout: OCFLLayout? {
        versions[head].map(OCFLLayout.of)
    }

    /// The head version's files: logical path → digest.
    var headFiles: [String: String] {
        var files: [String: String] = [:]
        for (digest, paths) in versions[head]?.state ?? [:] {
            for path in paths { files[path] = digest }
        }
        return files
    }
}
