import Foundation

/// What an application remembers about one bundle between sessions, kept in the bundle
/// itself: the task last opened, the export format last chosen. This is the idea of
/// SwiftUI's `@SceneStorage`, for a document file rather than a window.
///
/// The state is stored in the bundle's `state.json`, beside the history and outside it
/// (see ``BundleStateStorage``): changing it makes no version, so opening a task is not
/// an edit, and it travels with the file when the file is copied or mailed. Settings of
/// the user rather than of the bundle belong in `UserSettings` (DocumentKitCLI).
///
/// ```swift
/// let state = BundleState(bundle: url)                // or controller.state, bundle.state
/// try state.lastOpenedTask.set(task.id)
/// let reopened = try state.lastOpenedTask.get()       // nil when never set
/// ```
///
/// Each setting is a computed property whose name is its key in `state.json`; more are
/// declared in extensions next to the code that uses them (`exportFormat` in Operations),
/// and an application declares its own the same way, in its own extension. They are all
/// members of this one type, so two settings with the same key cannot both compile in
/// one module.
public struct BundleState: KeyValueSettings {
    /// Where the state is kept: normally a ``BundleStateStorage``.
    public let storage: any KeyValueStorage

    /// The state kept in `storage`.
    public init(storage: any KeyValueStorage) {
        self.storage = storage
    }

    /// The state of the bundle at `url`.
    public init(bundle url: URL) {
        self.init(storage: BundleStateStorage(url: url))
    }

    /// The task the user last had open, by its id: `task.last-opened` in `docctl state`.
    public var lastOpenedTask: KeyValueContainer<UUID> { storage.makeContainer() }
}
