import DocumentKit
import Foundation

extension Console {
    /// Prints `error: …` on stderr and goes on: for a command that reports each input that
    /// failed and carries on with the others, as `cat a b` and `ls a b` do, exiting at the
    /// end with a failure's status.
    static func printError(_ error: DocumentKitError) {
        FileHandle.standardError.write(Data("error: \(error.description)\n".utf8))
    }
}
