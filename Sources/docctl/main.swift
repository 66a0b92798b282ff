import DocumentKitCLI
import SampleProject

// docctl is DocumentKit's command-line tool over its sample document type; an app makes
// its own the same way, with its own types (DocumentKitCLI's `DocumentTool`).
DocumentTool.run(name: "docctl", types: [Project.self])
