import Foundation

/// A bundle, and perhaps one of its versions, as a command line names them: `garden.dkproj`,
/// or `garden.dkproj:3` (any version name after the last colon: a number, an id prefix,
/// `head`, `head~N`), as `git diff` takes `REV:PATH`.
public struct BundleVersionName: Equatable, Sendable {
    /// The bundle's path.
    public var bundle: String
    /// The version's name, or `nil` for the head.
    public var version: String?

    /// Reads `text`: an existing file is a bundle, whatever its name holds; otherwise, when
    /// the part before the last colon is an existing file, that is the bundle and the rest
    /// its version; otherwise `text` is a bundle that does not exist (yet), and opening it
    /// says so.
    public init(_ text: String) {
        if !Self.exists(text), let colon = text.lastIndex(of: ":"), Self.exists(String(text[..<colon])) {
            bundle = String(text[..<colon])
            version = String(text[text.index(after: colon)...])
        } else {
            bundle = text
            version = nil
        }
    }

    /// Whether `text` names a bundle rather than a version: an existing file, or
    /// `FILE:VERSION` of one.
    public static func namesBundle(_ text: String) -> Bool {
        exists(text) || BundleVersionName(text).version != nil
    }

    private static func exists(_ path: String) -> Bool {
        !path.isEmpty && FileTree.exists(path)
    }
}
