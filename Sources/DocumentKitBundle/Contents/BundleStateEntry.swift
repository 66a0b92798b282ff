import DocumentKitArchive
import DocumentKitCore
import DocumentKitJSON
import Foundation

/// The `state.json` entry: a bundle's state (``BundleState``) as one JSON object of key →
/// value, kept outside the versioned history (FORMAT.md §3.1).
///
/// The entry is canonical, as the manifest is: keys sorted, two-space indents, a final
/// newline. An empty state is no entry at all, so a bundle that never had state and one
/// whose last key was removed are the same bytes.
package enum BundleStateEntry {
    /// The state `data` holds: a JSON object within `limits`. Anything else is
    /// `malformedInput` located at the entry, never an empty state: a damaged entry is
    /// reported, not silently replaced.
    package static func decode(_ data: Data, limits: BundleLimits) throws -> [String: JSONValue] {
        let location = "entry '\(BundleEntry.state)'"
        guard data.count <= limits.maxStateBytes else {
            throw DocumentKitError(
                .malformedInput, "\(BundleEntry.state) is larger than the limit of \(limits.maxStateBytes) bytes",
                location: location)
        }
        let json: JSONValue
        do {
            json = try JSONValue.parse(data, depthLimit: limits.maxJSONDepth)
        } catch let error as DocumentKitError {
            throw DocumentKitError(.malformedInput, error.message, location: location)
        }
        guard case .object(let members) = json else {
            throw DocumentKitError(
                .malformedInput,
                """
                expected a JSON object of bundle state, found \
                \(json.kindName == "array" || json.kindName == "object" ? "an" : "a") \(json.kindName)
                """,
                location: location)
        }
        return members
    }

    /// The entry's bytes for `state`, or `nil` for an empty state (no entry). Throws
    /// `invalidDocument`, naming the size, when they would pass the limit.
    package static func encode(_ state: [String: JSONValue], limits: BundleLimits) throws -> Data? {
        guard !state.isEmpty else { return nil }
        var data = JSONValue.object(state).encoded(pretty: true)
        data.append(0x0A)
        guard data.count <= limits.maxStateBytes else {
            throw DocumentKitError(
                .invalidDocument,
                """
                the bundle state would be \(data.count) bytes, more than the limit of \(limits.maxStateBytes); \
                nothing was written
                """,
                location: "entry '\(BundleEntry.state)'")
        }
        return data
    }
}
