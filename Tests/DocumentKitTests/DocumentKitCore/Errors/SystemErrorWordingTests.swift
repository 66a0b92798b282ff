import DocumentKit
import Foundation
import Testing

/// One wording of a failed file operation, whoever met it (issue 23): `PATH: OPERATION:
/// REASON`, REASON the system's words for the errno, also when Foundation reported it.
@Suite struct SystemErrorWordingTests {
    @Test func foundationErrorsAreWordedAsTheirErrno() {
        let denied = DocumentKitError.system(
            "cannot create the folder", path: "root/x", error: CocoaError(.fileWriteNoPermission))
        #expect(denied.description == "root/x: cannot create the folder: Permission denied")
        #expect(denied.exitStatus == 73)
        let posix = DocumentKitError.system("cannot move it here", path: "r", error: POSIXError(.ENOSPC))
        #expect(posix.description == "r: cannot move it here: No space left on device")
        #expect(posix.exitStatus == 74)
        let wrapped = NSError(
            domain: NSCocoaErrorDomain, code: CocoaError.fileWriteUnknown.rawValue,
            userInfo: [NSUnderlyingErrorKey: NSError(domain: NSPOSIXErrorDomain, code: Int(EROFS))])
        #expect(
            DocumentKitError.system("cannot remove it", path: "r", error: wrapped).description
                == "r: cannot remove it: Read-only file system")
        // One the translator made already stays as it is.
        let made = DocumentKitError(.conflict, "locked", path: "r")
        #expect(DocumentKitError.system("cannot remove it", path: "other", error: made).description == "r: locked")
    }

    @Test func aRealFileManagerFailureIsWordedAsASystemCallsIs() throws {
        let directory = try TemporaryDirectory()
        try Fixtures.write(Data("a file".utf8), to: "file", in: directory.url)
        let target = directory.url.appendingPathComponent("file/sub")
        let error = try #require(throws: (any Error).self) {
            try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
        }
        let worded = DocumentKitError.system("cannot create the folder", path: "file/sub", error: error)
        #expect(
            worded.description
                == DocumentKitError.system("cannot create the folder", path: "file/sub", errno: ENOTDIR).description)
        #expect(worded.description == "file/sub: cannot create the folder: Not a directory")
    }
}
