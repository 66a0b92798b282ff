import Foundation

extension OCFLImporter {
    /// The content files of `versions` that an import will read, fetched (a remote's
    /// downloaded into `scratch`) and checked up to `jobs` at once, by SHA-512: what
    /// ``content(_:sha256:for:in:of:scratch:reusing:fetched:)`` then takes instead of
    /// fetching them one by one. Those `local` holds (by SHA-256) are not fetched. With
    /// `jobs` of 1, nothing: each file is fetched as the import comes to it, as before.
    static func prefetch(
        _ versions: [ExportedHistory.Version], of object: OCFLObject, sha256: [String: String], scratch: URL,
        reusing local: DocumentBundle?, jobs: Int
    ) throws -> [String: URL] {
        guard jobs > 1 else { return [:] }
        var wanted: [(digest: String, path: String, location: String)] = []
        var seen = Set<String>()
        for version in versions {
            for (path, digest) in version.files where seen.insert(digest).inserted {
                if let local, let known = sha256[digest].flatMap(ObjectDigest.init(hex:)),
                    try local.manifest.objects[known] != nil
                {
                    continue
                }
                wanted.append((digest, path, version.location))
            }
        }
        let fetched = Protected<[String: URL]>([:])
        try TransferQueue.run(wanted, jobs: jobs) { file in
            let url = try object.contentFile(file.digest, for: file.path, in: file.location, scratch: scratch)
            fetched.mutate { $0[file.digest] = url }
        }
        return fetched.value
    }
}
