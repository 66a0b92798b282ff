import Crypto
import Foundation

/// Paths in bag manifests: `%`, CR and LF percent-encoded (RFC 8493 §2.1.3).
package enum BagPathCoding {
    package static func encode(_ path: String) -> String {
        path.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\r", with: "%0D")
            .replacingOccurrences(of: "\n", with: "%0A")
    }

    package static func decode(_ path: String) -> String {
        path.replacingOccurrences(of: "%0A", with: "\n").replacingOccurrences(of: "%0a", with: "\n")
            .replacingOccurrences(of: "%0D", with: "\r").replacingOccurrences(of: "%0d", with: "\r")
            .replacingOccurrences(of: "%25", with: "%")
    }
}
