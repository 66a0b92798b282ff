import Foundation

/// The conflicts each path of a `BundlePuller.Resolution` names, as a user writes paths
/// (`tasks[0].title`, `tasks[id=6F9…].title`, `tasks[title=Dig].done`, `tasks[*].title`,
/// or `tasks[0]` for every conflict inside that task), although conflicts are listed with
/// each record's id (`tasks[id=6F9…].title`). An index counts in this bundle's document,
/// the one `get` reads. Each path must name at least one conflict of the merge, and two
/// paths naming one conflict must choose the same side: otherwise the merge is refused,
/// rather than a request being silently passed over.
final class ResolutionPaths {
    private struct Requested {
        let text: String
        let path: JSONPath
        let side: JSONMerge.Side
    }

    private let requested: [Requested]
    private let all: JSONMerge.Side?
    private let documents: [JSONValue]
    /// The paths, as written, that named a conflict.
    private var used: Set<String> = []
    /// Every conflict the merge met, resolved or not, in order.
    private var seen: [String] = []
    /// A conflict two paths resolve differently, with the two paths.
    private var contradiction: (conflict: String, first: String, second: String)?

    /// `documents` are ours, theirs and base: an index counts in ours; a record is found
    /// in whichever holds it.
    init(_ resolution: BundlePuller.Resolution, ours: JSONValue, theirs: JSONValue, base: JSONValue) throws {
        requested = try resolution.paths.keys.sorted().map { text in
            let path = try DocumentKitError.located(at: "the resolution path '\(text)'") { try JSONPath(parsing: text) }
            return Requested(text: text, path: path, side: resolution.paths[text]!)
        }
        all = resolution.all
        documents = [ours, theirs, base]
    }

    /// The side the conflict at `conflict` (a path as `JSONMerge.Conflict` writes it) takes:
    /// that of the paths naming it, else the one for all.
    func side(at conflict: String) -> JSONMerge.Side? {
        seen.append(conflict)
        let path = try? JSONPath(parsing: conflict)
        var chosen: (text: String, side: JSONMerge.Side)?
        for request in requested where request.text == conflict || path.map({ names(request.path, $0) }) == true {
            used.insert(request.text)
            if let chosen, chosen.side != request.side, contradiction == nil {
                contradiction = (conflict, chosen.text, request.text)
            }
            chosen = chosen ?? (request.text, request.side)
        }
        return chosen?.side ?? all
    }

    /// Throws when a path named no conflict, or two named one and chose differently.
    func checkEveryPathWasUsed() throws {
        if let contradiction {
            throw DocumentKitError(
                .usage,
                """
                '\(contradiction.first)' and '\(contradiction.second)' both name the conflict at \
                \(contradiction.conflict) and choose different sides; nothing was written
                """
            )
        }
        guard let unused = requested.first(where: { !used.contains($0.text) }) else { return }
        let listed =
            seen.isEmpty
            ? "the merge has no conflicts"
            : "the conflicts are at \(seen.prefix(5).joined(separator: ", "))\(seen.count > 5 ? ", …" : "")"
        throw DocumentKitError(
            .usage,
            "nothing to resolve at '\(unused.text)': no conflict of the merge is there (\(listed)); nothing was written"
        )
    }

    /// Whether `request` names the conflict at `conflict`, or a value holding it: step by
    /// step, a key is the same key, and an array step (`[*]`, an index, `[field=value]`)
    /// reaches the element the conflict's step reaches.
    private func names(_ request: JSONPath, _ conflict: JSONPath) -> Bool {
        guard request.components.count <= conflict.components.count else { return false }
        for (step, wanted) in request.components.enumerated() {
            let actual = conflict.components[step]
            if wanted == actual { continue }
            let prefix = JSONPath(components: Array(conflict.components[..<step]))
            switch (wanted, actual) {
            case (.wildcard, .match), (.wildcard, .index):
                continue
            case (.match(let field, let value), .match):
                guard case .object(let members)? = element(at: prefix.appending(actual)),
                    members[field]?.matches(value) == true
                else { return false }
            case (.index(let index), .match), (.index(let index), .index):
                guard case .array(let elements)? = try? documents[0].value(at: prefix) else { return false }
                let position = index < 0 ? elements.count + index : index
                guard elements.indices.contains(position) else { return false }
                switch actual {
                case .index(let reached): guard reached == position else { return false }
                case .match(let field, let value):
                    guard case .object(let members) = elements[position], members[field]?.matches(value) == true else {
                        return false
                    }
                default: return false
                }
            default:
                return false
            }
        }
        return true
    }

    /// The value at `path` in the first of ours, theirs and base that holds it.
    private func element(at path: JSONPath) -> JSONValue? {
        documents.lazy.compactMap { try? $0.value(at: path) }.first
    }
}
