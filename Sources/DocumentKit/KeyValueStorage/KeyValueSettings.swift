import Foundation

/// A set of typed settings over one ``KeyValueStorage``, each a computed property that
/// returns a ``KeyValueContainer`` named by the property: `UserSettings` (the user's
/// preferences) and ``BundleState`` (one bundle's state) are two.
///
/// Tools that read and write settings by name, such as `docctl config` and `docctl
/// state`, work over any such type.
public protocol KeyValueSettings: Sendable {
    /// Where the settings are kept.
    var storage: any KeyValueStorage { get }

    /// The settings kept in `storage`.
    init(storage: any KeyValueStorage)
}
