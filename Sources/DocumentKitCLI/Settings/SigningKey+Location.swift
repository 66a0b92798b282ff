import DocumentKit
import Foundation

extension SigningKey {
    /// Where docctl keeps the user's signing key: `signing.key` beside the preferences,
    /// `$XDG_CONFIG_HOME/docctl/signing.key`.
    static func location(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> URL {
        try PreferencesFile.location(application: "docctl", environment: environment).deletingLastPathComponent()
            .appendingPathComponent("signing.key")
    }

    /// The key every save signs with: the user's, when they made one (`docctl key new`);
    /// `nil` when there is none. A key file that is not private, or not a key, stops the
    /// save: a save the user expects signed is never made unsigned.
    static func forSaves(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> SigningKey? {
        guard let url = try? location(environment: environment), SystemCall.linkStatus(url.path) != nil else { return nil }
        return try SigningKey(contentsOf: url)
    }
}

extension TrustedSigners {
    /// `trusted_signers` beside the preferences: the keys `verify` and `pull
    /// --require-signed` trust when given no `--trusted FILE`.
    static func location(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> URL {
        try PreferencesFile.location(application: "docctl", environment: environment).deletingLastPathComponent()
            .appendingPathComponent("trusted_signers")
    }

    /// The signers in `path`, else in the default file when it exists; `nil` when neither.
    static func named(_ path: String?) throws -> TrustedSigners? {
        if let path { return try TrustedSigners(contentsOf: URL(fileURLWithPath: path)) }
        guard let url = try? location(), SystemCall.linkStatus(url.path) != nil else { return nil }
        return try TrustedSigners(contentsOf: url)
    }
}
