import DocumentKit
import Foundation

extension PreferencesFile {
    /// The preferences of `application` for the user whose environment is `environment`
    /// (the program passes its own), in ``location(application:environment:)``.
    public convenience init(application: String, keyPrefix: String = "", environment: [String: String]) throws {
        self.init(
            url: try PreferencesFile.location(application: application, environment: environment), keyPrefix: keyPrefix)
    }

    /// `$XDG_CONFIG_HOME/APPLICATION/preferences.json`, following the XDG Base Directory
    /// specification: `XDG_CONFIG_HOME` counts only when it is an absolute path, and
    /// defaults to `$HOME/.config` (the home folder from the user database when `HOME` is unset).
    public static func location(application: String, environment: [String: String]) throws -> URL {
        let configHome: String
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
            configHome = xdg
        } else if let home = ToolSetup.homeFolder(environment: environment) {
            configHome = (home as NSString).appendingPathComponent(".config")
        } else {
            throw DocumentKitError(
                .missingInput,
                "cannot find the preferences: neither XDG_CONFIG_HOME nor HOME is set, and the user has no home folder")
        }
        return URL(fileURLWithPath: configHome, isDirectory: true)
            .appendingPathComponent(application, isDirectory: true)
            .appendingPathComponent("preferences.json")
    }
}
