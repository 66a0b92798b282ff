import DocumentKit
import Foundation

extension DocumentTool {
    /// The user's home folder, as every setting docctl reads finds it: `$HOME` when set and
    /// not empty (as the shell, git and the AWS tools take it, so `HOME=$PWD/bob docctl …`
    /// acts as bob in every respect), else the home folder of the user database.
    /// `nil` when neither names one.
    public static func homeFolder(environment: [String: String]) -> String? {
        ToolSetup.homeFolder(environment: environment)
    }
}
