import Foundation

/// An OCFL 1.1 storage root laid out by the `0004-hashed-n-tuple-storage-layout`
/// extension (https://ocfl.github.io/extensions/0004-hashed-n-tuple-storage-layout.html):
/// an object's folder is three folders of three hex digits each, taken from the SHA-256 of
/// its id, then the whole digest (FORMAT.md §10). Roots are made and written by pushes
/// (``RemoteRoot``); these are their names and checks.
enum OCFLStorageRoot {
    static let declaration = "0=ocfl_1.1"
    static let declarationText = "ocfl_1.1\n"
    static let layoutFile = "ocfl_layout.json"
    static let layoutName = "0004-hashed-n-tuple-storage-layout"
    static let layoutConfigPath = "extensions/\(layoutName)/config.json"

    struct Layout: Codable, Equatable {
        var extensionName = OCFLStorageRoot.layoutName
        var digestAlgorithm = "sha256"
        var tupleSize = 3
        var numberOfTuples = 3
        var shortObjectRoot = false
    }

    private struct LayoutDeclaration: Codable {
        var `extension`: String
        var description: String
    }

    /// Refuses (`cannotCreateOutput`) a root whose declaration is not OCFL 1.1's, or whose
    /// layout is not the one DocumentKit writes.
    static func checkDeclarations(_ storage: any OCFLRootReading) throws {
        guard try storage.readFileIfPresent(declaration) == Data(declarationText.utf8) else {
            throw DocumentKitError(
                .cannotCreateOutput, "not an OCFL 1.1 storage root (its \(declaration) declaration is not OCFL 1.1's)",
                path: storage.displayPath)
        }
        // A file that cannot be read is the remote's failure, said as such; one that is
        // missing or not this layout's is the root's.
        let layout = try storage.readFileIfPresent(layoutFile).flatMap {
            try? JSONDecoder().decode(LayoutDeclaration.self, from: $0)
        }
        let config = try storage.readFileIfPresent(layoutConfigPath).flatMap {
            try? JSONDecoder().decode(Layout.self, from: $0)
        }
        guard layout?.extension == layoutName, config == Layout() else {
            throw DocumentKitError(
                .cannotCreateOutput,
                """
                an OCFL storage root whose layout is not \(layoutName) with tupleSize 3 and numberOfTuples 3 \
                (\(layoutFile), \(layoutConfigPath)); DocumentKit archives only into that layout
                """,
                path: storage.displayPath)
        }
    }

    /// The files that make a new storage root, by path, in the order to write them: the
    /// layout's, then the declaration, since a root is a root once it has one.
    static func declarationFiles() throws -> [(path: String, data: Data)] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        let declaration = LayoutDeclaration(
            extension: layoutName,
            description:
                """
                Hashed N-tuple Storage Layout: sha256 of the object id, 3 tuples of 3 hex digits, then the whole \
                digest
                """
        )
        return [
            (layoutConfigPath, try encoder.encode(Layout()) + Data("\n".utf8)),
            (layoutFile, try encoder.encode(declaration) + Data("\n".utf8)),
            (Self.declaration, Data(declarationText.utf8))
        ]
    }

    /// The object folder of `id`, relative to the root: `abc/def/012/abcdef012…` (64 digits).
    static func objectPath(for id: String) -> String {
        let digest = ObjectDigest.of(Data(id.utf8)).hex
        let tuples = (0..<3).map { index in
            String(digest.dropFirst(index * 3).prefix(3))
        }
        return (tuples + [digest]).joined(separator: "/")
    }
}
