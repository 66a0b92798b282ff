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
        guard let url = try? location(environment: environment), SystemCall.linkStatus(url.path) != nil else {
            return nil
        }
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

    /// The signers in `path`, else in the default file when it exists, and the user's own
    /// key (`signing.key`), trusted as `ownKeyName` ("you") unless a line names it: what the
    /// user signed is theirs. `nil` when there is neither a file nor a key.
    static func named(
        _ path: String?, ownKeyName: String = ownName,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> TrustedSigners? {
        var signers: TrustedSigners?
        if let path {
            signers = try TrustedSigners(contentsOf: URL(fileURLWithPath: path))
        } else if let url = try? location(environment: environment), SystemCall.linkStatus(url.path) != nil {
            signers = try TrustedSigners(contentsOf: url)
        }
        if let own = try SigningKey.forSaves(environment: environment) {
            signers = signers ?? TrustedSigners()
            signers?.add(own.publicKey, name: ownKeyName)
        }
        return signers
    }

    /// The name the user's own key is shown by when no line names it.
    static let ownName = "you"
    /// The name the user's own key is shown by in what others read (an HTML export's
    /// history), where "you" would name the reader.
    static let exporterName = "the exporting user's key"
}
