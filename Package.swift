// swift-tools-version: 6.1
import PackageDescription

let package = Package(
  name: "TxFold",
  products: [
    .library(name: "TxFold", targets: ["TxFold"]),
    .executable(name: "txfold", targets: ["TxFoldCLI"]),
  ],
  dependencies: [
    // The CLI's flags, help and usage errors (exit 64); the library does not depend on it.
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2")
  ],
  targets: [
    // zlib from the system (Debian: zlib1g-dev) for gzip input and `gen --gzip`.
    .systemLibrary(
      name: "CZlib",
      pkgConfig: "zlib",
      providers: [.apt(["zlib1g-dev"])]
    ),
    .target(
      name: "TxFold",
      dependencies: ["CZlib"]
    ),
    .executableTarget(
      name: "TxFoldCLI",
      dependencies: [
        "TxFold",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    .testTarget(
      name: "TxFoldTests",
      dependencies: ["TxFold"]
    ),
    // Runs the built `txfold` binary; depending on the executable makes `swift test` build it.
    .testTarget(
      name: "EndToEndTests",
      dependencies: ["TxFold", "TxFoldCLI"]
    ),
  ]
)
