// swift-tools-version: 6.1
import PackageDescription

// An app's view of the library: a package of its own that depends on TxFold by path, as an app
// or service would by URL, with the platforms an app supporting iOS 16 declares. `traits: []`
// turns off TxFold's default CommandLineTool trait: then SwiftPM neither fetches nor compiles
// swift-argument-parser (the txfold tool's dependency), which test.sh checks in the build log.
let package = Package(
  name: "AppClient",
  platforms: [.macOS(.v13), .iOS(.v16)],
  dependencies: [.package(name: "TxFold", path: "../..", traits: [])],
  targets: [
    .executableTarget(name: "AppClient", dependencies: [.product(name: "TxFold", package: "TxFold")])
  ]
)
