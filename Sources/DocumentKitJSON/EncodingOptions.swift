import DocumentKitCore
import Foundation

package struct EncodingOptions {
    package let pretty: Bool
    package let userInfo: [CodingUserInfoKey: any Sendable]
}
