import DocumentKitArchive
import DocumentKitCore
import DocumentKitJSON
import Foundation

extension DocumentBundle {
    /// The version a user names: a number (`3`), an id or a unique id prefix of at least
    /// four digits, `head`, or `head~N` (N versions before the head).
    public func version(named name: String) throws -> BundleVersion {
        let versions = manifest.versions
        let range = versions.isEmpty ? "none" : "\(versions.first!.number)–\(versions.last!.number)"
        func missing() -> DocumentKitError {
            let lowered = name.lowercased()
            let firstNumber = versions.first?.number ?? 1
            let wasPruned = (Int(name).map { $0 >= 1 && $0 < firstNumber } ?? false)
                || (lowered.count >= 4 && manifest.pruned.contains { $0.hasPrefix(lowered) })
            if wasPruned {
                return DocumentKitError(.notFound, "version '\(name)' was pruned (versions \(range) remain)", path: url.relativePath)
            }
            return DocumentKitError(.notFound, "no version '\(name)' (versions \(range); use a number, an id prefix, head or head~N)", path: url.relativePath)
        }
        let lowered = name.lowercased()
        if lowered == "head" { return headVersion }
        if lowered.hasPrefix("head~"), let back = Int(lowered.dropFirst(5)), back >= 0 {
            // A walk of more steps than there are versions can only go round a cycle of
            // parents (a manifest that lies): refuse it rather than walk it for ever.
            guard back < versions.count else { throw missing() }
            var current = headVersion
            for _ in 0..<back {
                guard let parent = current.parents.first, let found = versions.first(where: { $0.id == parent }) else { throw missing() }
                current = found
            }
            return current
        }
        if let number = Int(name), !(name.count >= 4 && name.allSatisfy(\.isHexDigit) && name.hasPrefix("0")) {
            if let found = versions.first(where: { $0.number == number }) { return found }
            if name.count < 4 { throw missing() }
        }
        guard lowered.count >= 4, lowered.allSatisfy(\.isHexDigit) else { throw missing() }
        let matches = versions.filter { $0.id.hasPrefix(lowered) }
        guard matches.count <= 1 else {
            throw DocumentKitError(.usage, "version id prefix '\(name)' is ambiguous: it matches \(matches.map(\.shortID).joined(separator: ", "))", path: url.relativePath)
        }
        guard let found = matches.first else { throw missing() }
        return found
    }
}
