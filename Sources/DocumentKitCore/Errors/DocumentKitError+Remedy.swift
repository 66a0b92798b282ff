extension DocumentKitError {
    /// What would get past an error, for the program in front of the library to put in its
    /// own words: the library's messages name no command-line option, since an app (or a
    /// tool such as notectl) offers the remedy its own way. docctl appends its hint to the
    /// message (`already exists` becomes `already exists (use --force to replace it)`).
    public enum Remedy: Sendable, Equatable {
        /// Replace the output that exists (docctl: `--force`).
        case replaceOutput
        /// Create the bundle that an import adds to (docctl: `--output`).
        case createBundle
        /// Check the other copy in full, which lists every problem (docctl:
        /// `validate --deep`).
        case validateFully
        /// The versions were refused because only versions signed by a trusted key were
        /// to be taken (docctl: `--require-signed`).
        case onlySignedVersions
        /// Name the place in the document the attachment goes (docctl: `--as PATH`).
        case nameAttachmentPlace
        /// Name one of the projects a remote holds (docctl: `--object ID`).
        case chooseProject
        /// Push the bundle as another project beside those the remote holds (docctl:
        /// `--new-project`), which a clone then has to name; `beside` describes them.
        case pushAsNewProject(beside: String)
        /// Take the remote's new versions into the bundle, then push again (docctl:
        /// `pull BUNDLE REMOTE`).
        case pullFirst(bundle: String, remote: String)
        /// Archive a copy of the bundle that holds the archived versions (one pulled from
        /// elsewhere), or archive into another root.
        case archiveACopyHoldingIt
        /// Copy the project a remote's root holds, rather than import the root (docctl:
        /// `clone SOURCE -o OUTPUT`).
        case cloneInstead(source: String, output: String)
        /// Write a copy of the bundle without superseded bytes (docctl: `pack`).
        case writeCompactCopy
        /// Save the head in the current schema (docctl: `migrate`).
        case saveInCurrentSchema
        /// Give a public key as the program prints it (docctl: `key show`).
        case givePrintedKey
    }
}
