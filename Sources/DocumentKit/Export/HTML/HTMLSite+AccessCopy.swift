extension OCFLDeposit.AccessCopy {
    /// The HTML site of the head being archived, as `docctl export --format html` writes
    /// it, its history pages naming the signers in `trusted` (as `docctl verify`'s).
    public static func htmlSite(trusted: TrustedSigners?) -> Self {
        Self(
            files: { bundle in
                try HTMLSite.files(of: bundle, selected: bundle.headVersion, allVersions: false, trusted: trusted)
            },
            entryPage: HTMLSite.entryPage)
    }
}
