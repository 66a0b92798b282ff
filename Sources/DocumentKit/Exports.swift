// `import DocumentKit` gives an app every layer's public API: errors and digests, archives,
// JSON, and the bundle store, as well as documents.
@_exported import DocumentKitArchive
@_exported import DocumentKitBundle
@_exported import DocumentKitCore
@_exported import DocumentKitJSON
