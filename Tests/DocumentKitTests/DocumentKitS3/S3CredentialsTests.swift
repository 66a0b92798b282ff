import DocumentKit
import Foundation
import Testing

@testable import DocumentKitS3

/// Credentials and region are found where the AWS tools find them, and never printed.
@Suite struct S3CredentialsTests {
    @Test func theEnvironmentComesFirstThenTheSharedFilesProfile() throws {
        let directory = try TemporaryDirectory()
        let fromEnvironment = try S3Credentials.standard(
            environment: ["AWS_ACCESS_KEY_ID": "AKID", "AWS_SECRET_ACCESS_KEY": "S", "AWS_SESSION_TOKEN": "T"],
            home: nil)
        #expect(
            fromEnvironment.accessKeyID == "AKID" && fromEnvironment.secretAccessKey == "S"
                && fromEnvironment.sessionToken == "T")
        try FileManager.default.createDirectory(
            at: directory.url.appendingPathComponent(".aws"), withIntermediateDirectories: false)
        try Fixtures.write(
            Data(
                """
                [default]
                aws_access_key_id = DEFAULTID
                aws_secret_access_key = defaultsecret
                # a comment
                [backup]
                aws_access_key_id=BACKUPID
                aws_secret_access_key=backupsecret
                aws_session_token = tok

                """.utf8), to: ".aws/credentials", in: directory.url)
        try Fixtures.write(
            Data("[default]\nregion = eu-west-1\n[profile backup]\nregion=eu-central-2\n".utf8), to: ".aws/config",
            in: directory.url)
        let home = directory.url.path
        #expect(try S3Credentials.standard(environment: [:], home: home).accessKeyID == "DEFAULTID")
        let backup = try S3Credentials.standard(environment: ["AWS_PROFILE": "backup"], home: home)
        #expect(
            backup.accessKeyID == "BACKUPID" && backup.secretAccessKey == "backupsecret" && backup.sessionToken == "tok"
        )
        #expect(S3Credentials.region(environment: [:], home: home) == "eu-west-1")
        #expect(S3Credentials.region(environment: ["AWS_PROFILE": "backup"], home: home) == "eu-central-2")
        #expect(
            S3Credentials.region(environment: ["AWS_REGION": "us-west-2", "AWS_PROFILE": "backup"], home: home)
                == "us-west-2")
        #expect(S3Credentials.region(environment: [:], home: nil) == "us-east-1")
        let missing = #expect(throws: DocumentKitError.self) {
            try S3Credentials.standard(environment: ["AWS_PROFILE": "nobody"], home: home)
        }
        #expect(
            missing?.description
                == "\(home)/.aws/credentials: has no aws_access_key_id and aws_secret_access_key for profile 'nobody'")
        // Where it looked and which profile, never a key or a secret.
        let text = missing.map { "\($0)" } ?? ""
        #expect(!text.contains("backupsecret") && !text.contains("defaultsecret") && !text.contains("BACKUPID"))
    }

    @Test func theEndpointComesFromTheEnvironmentThenTheProfileElseAWS() throws {
        let directory = try TemporaryDirectory()
        try FileManager.default.createDirectory(
            at: directory.url.appendingPathComponent(".aws"), withIntermediateDirectories: false)
        try Fixtures.write(
            Data("[default]\nregion = eu-west-1\n[profile minio]\nendpoint_url = http://10.0.0.2:9000\n".utf8),
            to: ".aws/config", in: directory.url)
        let home = directory.url.path
        #expect(
            S3Credentials.endpoint(environment: [:], home: home, region: "eu-west-1")
                == "https://s3.eu-west-1.amazonaws.com")
        #expect(
            S3Credentials.endpoint(environment: ["AWS_PROFILE": "minio"], home: home, region: "us-east-1")
                == "http://10.0.0.2:9000")
        #expect(
            S3Credentials.endpoint(
                environment: ["AWS_PROFILE": "minio", "AWS_ENDPOINT_URL": "http://a:1"], home: home, region: "us-east-1"
            ) == "http://a:1")
        #expect(
            S3Credentials.endpoint(
                environment: ["AWS_ENDPOINT_URL_S3": "http://s3only:2", "AWS_ENDPOINT_URL": "http://a:1"], home: home,
                region: "us-east-1") == "http://s3only:2")
    }
}
