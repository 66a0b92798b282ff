import DocumentKitCore
import Foundation

extension S3Credentials {
    /// The credentials the AWS tools would use, found as they find them: `AWS_ACCESS_KEY_ID`
    /// and `AWS_SECRET_ACCESS_KEY` (with `AWS_SESSION_TOKEN`), else the profile
    /// `AWS_PROFILE` (default `default`) of the shared credentials file,
    /// `AWS_SHARED_CREDENTIALS_FILE` or `~/.aws/credentials`. Throws `missingInput` naming
    /// where it looked, never a secret. The program passes its environment and home
    /// folder: the library reads neither itself.
    public static func standard(environment: [String: String], home: String?) throws -> S3Credentials {
        if let id = environment["AWS_ACCESS_KEY_ID"], !id.isEmpty, let secret = environment["AWS_SECRET_ACCESS_KEY"],
            !secret.isEmpty
        {
            return S3Credentials(
                accessKeyID: id, secretAccessKey: secret,
                sessionToken: environment["AWS_SESSION_TOKEN"].flatMap { $0.isEmpty ? nil : $0 })
        }
        let profile = environment["AWS_PROFILE"].flatMap { $0.isEmpty ? nil : $0 } ?? "default"
        let path =
            environment["AWS_SHARED_CREDENTIALS_FILE"].flatMap { $0.isEmpty ? nil : $0 }
            ?? home.map { ($0 as NSString).appendingPathComponent(".aws/credentials") }
        if let path, let text = FileTree.text(of: path) {
            let values = AWSConfigFile.section(profile, in: text)
            if let id = values["aws_access_key_id"], let secret = values["aws_secret_access_key"] {
                return S3Credentials(
                    accessKeyID: id, secretAccessKey: secret, sessionToken: values["aws_session_token"])
            }
            throw DocumentKitError(
                .missingInput, "has no aws_access_key_id and aws_secret_access_key for profile '\(profile)'", path: path
            )
        }
        throw DocumentKitError(
            .missingInput,
            """
            no S3 credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or write them in \
            \(path ?? "~/.aws/credentials")
            """
        )
    }

    /// The region requests are signed for: `AWS_REGION`, `AWS_DEFAULT_REGION`, the profile's
    /// `region` in `AWS_CONFIG_FILE` or `~/.aws/config`, else `us-east-1`.
    public static func region(environment: [String: String], home: String?) -> String {
        for name in ["AWS_REGION", "AWS_DEFAULT_REGION"] {
            if let region = environment[name], !region.isEmpty { return region }
        }
        return AWSConfigFile.profileValue("region", environment: environment, home: home) ?? "us-east-1"
    }
}

extension S3Credentials {
    /// The S3 endpoint the AWS tools would use: `AWS_ENDPOINT_URL_S3`, `AWS_ENDPOINT_URL`, the
    /// profile's `endpoint_url` in `AWS_CONFIG_FILE` or `~/.aws/config`, else AWS's own
    /// endpoint for `region`.
    public static func endpoint(environment: [String: String], home: String?, region: String) -> String {
        for name in ["AWS_ENDPOINT_URL_S3", "AWS_ENDPOINT_URL"] {
            if let url = environment[name], !url.isEmpty { return url }
        }
        return AWSConfigFile.profileValue("endpoint_url", environment: environment, home: home)
            ?? "https://s3.\(region).amazonaws.com"
    }
}

/// The INI files of the AWS tools (`~/.aws/credentials`, `~/.aws/config`).
enum AWSConfigFile {
    /// `key` of the profile `AWS_PROFILE` (default `default`) in `AWS_CONFIG_FILE` or
    /// `~/.aws/config`, where a profile other than the default is `[profile NAME]`.
    static func profileValue(_ key: String, environment: [String: String], home: String?) -> String? {
        let profile = environment["AWS_PROFILE"].flatMap { $0.isEmpty ? nil : $0 } ?? "default"
        let path =
            environment["AWS_CONFIG_FILE"].flatMap { $0.isEmpty ? nil : $0 }
            ?? home.map { ($0 as NSString).appendingPathComponent(".aws/config") }
        guard let path, let text = FileTree.text(of: path) else { return nil }
        return section(profile == "default" ? "default" : "profile \(profile)", in: text)[key]
    }

    /// The `key = value` pairs of section `[name]`, keys lower-cased.
    static func section(_ name: String, in text: String) -> [String: String] {
        var values: [String: String] = [:]
        var inSection = false
        for rawLine in text.split(whereSeparator: \.isNewline) {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            if line.hasPrefix("["), line.hasSuffix("]") {
                inSection = line.dropFirst().dropLast().trimmingCharacters(in: .whitespaces) == name
                continue
            }
            guard inSection, let equals = line.firstIndex(of: "=") else { continue }
            values[line[..<equals].trimmingCharacters(in: .whitespaces).lowercased()] = line[
                line.index(after: equals)...
            ].trimmingCharacters(in: .whitespaces)
        }
        return values
    }
}
