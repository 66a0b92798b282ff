import DocumentKitCore
import Foundation

/// A coding key for any string or index.
public struct AnyCodingKey: CodingKey, Hashable {
    public var stringValue: String
    public var intValue: Int?
    public init(stringValue: String) { self.stringValue = stringValue }
    public init(intValue: Int) {
        self.stringValue = String(intValue)
        self.intValue = intValue
    }
}
