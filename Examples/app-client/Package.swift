// swift-tools-version: 6.1
import PackageDescription

// An app's view of the library: a package of its own that depends on TxFold by path, as an app
// or service would by URL, with the platforms an app supporting iOS 16 declares.
let package = Package(
  name: "AppClient",
  platforms: [.macOS(.v13), .iOS(.v16)],
  dependencies: [.package(name: "TxFold", path: "../..")],
  targets: [
    .executableTarget(name: "AppClient", dependencies: [.product(name: "TxFold", package: "TxFold")])
  ]
)
