import Foundation

/// Checks who saved each version of a bundle (`docctl verify`): every version's signature
/// against its id and the key it names, the key looked up in a trusted-signers file, and
/// the whole bundle checked deeply (every object against its digest, every id against its
/// record), so that a changed byte anywhere in a version, its objects or its signature is
/// found.
public enum BundleVerifier {
    /// What the verification found.
    public struct Report: Codable, Sendable {
        /// One version's signature.
        public struct Signature: Codable, Sendable, Equatable {
            public var number: Int
            public var id: String
            public var status: SignatureStatus
            /// The trusted signer's name, when the trusted signers give it one.
            public var signer: String?
            /// The signing key's fingerprint.
            public var key: String?
        }

        public var file: String
        public var versions: [Signature]
        /// Every error and warning of a deep validation.
        public var findings: [ValidationFinding]
        /// Whether nothing was altered: no error found.
        public var valid: Bool

        public init(file: String, versions: [Signature], findings: [ValidationFinding]) {
            self.file = file
            self.versions = versions
            self.findings = findings
            valid = !findings.contains { $0.severity == .error }
        }
    }

    /// Verifies the bundle at `url`, naming signers from `trusted` when given. With `deep`
    /// false, the bundle is checked as `validate` checks it (every record, id, signature and
    /// segment, and the head's document) rather than rebuilding every version's document.
    public static func verify(_ url: URL, trusted: TrustedSigners? = nil, deep: Bool = true) throws -> Report {
        let validation = try BundleValidator.validate(url, deep: deep)
        let bundle = try DocumentBundle(contentsOf: url)
        // Read a block at a time, never listing the history: a long history's listing holds
        // every object's record besides its versions.
        var versions: [Report.Signature] = []
        try bundle.forEachVersionNewestFirst { version in
            let status = Self.status(of: version, trusted: trusted)
            versions.append(
                Report.Signature(
                    number: version.number, id: version.id, status: status.status, signer: status.name,
                    key: status.key?.fingerprint))
            return true
        }
        return Report(file: url.relativePath, versions: versions.reversed(), findings: validation.findings)
    }

    /// How `version` is signed, and by whom.
    package static func status(of version: BundleVersion, trusted: TrustedSigners?) -> (
        status: SignatureStatus, name: String?, key: VerifyingKey?
    ) {
        guard let signature = version.signature else { return (.unsigned, nil, nil) }
        guard let key = signature.signer(ofVersion: version.id) else {
            return (.invalid, nil, VerifyingKey(text: signature.key))
        }
        guard let trusted else { return (.signed, nil, key) }
        guard trusted.trusts(key) else { return (.untrusted, nil, key) }
        return (.signed, trusted.name(of: key), key)
    }

    /// How a version is signed, as `verify --json` spells it.
    public enum SignatureStatus: String, Codable, Sendable, Equatable {
        /// Signed by a trusted key, when trusted signers were given; by a good signature
        /// of its id, when not.
        case signed
        /// A good signature by a key the trusted signers do not list.
        case untrusted
        case unsigned
        /// Not a signature of the id by the key it names: the version was altered.
        case invalid
    }
}
