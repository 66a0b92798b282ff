import DocumentKitCore
import Foundation

/// `true`, `false` or `null`.
package enum JSONLiteral {
    case `true`, `false`, null
}
