// swift-tools-version: 6.1
import PackageDescription

let package = Package(
  name: "TxFold",
  // The oldest Apple systems the library is declared for (Documentation/Decisions.md, "Platforms"):
  // the code needs Swift concurrency (macOS 10.15 / iOS 13 on); no API of macOS 15 / iOS 18
  // (Int128, Mutex, Atomic, Span) outside an `@available` declaration, which Scripts/portability.sh
  // checks. Not built with an Apple toolchain in this project's CI (Linux only).
  platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
  products: [
    .library(name: "TxFold", targets: ["TxFold"]),
    .executable(name: "txfold", targets: ["TxFoldCLI"]),
    // The synthetic dump generator, a product only so the nested Benchmarks package can use it;
    // apps that read dumps do not need it, so the library does not ship it.
    .library(name: "TxFoldGen", targets: ["TxFoldGen"]),
  ],
  traits: [
    // The `txfold` executable's dependency on swift-argument-parser. On by default, so `swift run
    // txfold …` and `swift test` work as they are; an app that depends on the library only turns
    // it off (`.package(url: …, from: …, traits: [])`) and then SwiftPM checks out and compiles
    // nothing of swift-argument-parser, plugins included (resolving may still fetch its repository;
    // Examples/app-client/test.sh
    // checks its build log; Documentation/Decisions.md, "The library builds without the CLI's
    // dependency").
    .trait(
      name: "CommandLineTool",
      description:
        "Build the txfold command-line tool's dependency, swift-argument-parser (on by default; an app using only the TxFold library turns it off with traits: [])."
    ),
    // Off by default, so a fresh machine needs nothing beyond zlib: `swift build --traits ISAL`.
    // It enables CommandLineTool too, because `--traits` replaces the default traits and
    // `swift build --traits ISAL` must still build `txfold`.
    .trait(
      name: "ISAL",
      description:
        "Inflate gzip input with Intel ISA-L (Debian: libisal-dev) instead of zlib: about 2.5 times as fast, same results.",
      enabledTraits: ["CommandLineTool"]
    ),
    .default(enabledTraits: ["CommandLineTool"]),
  ],
  dependencies: [
    // The CLI's flags, help and usage errors (exit 64); the library does not depend on it, and
    // without the CommandLineTool trait nothing of it is checked out or built.
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2")
  ],
  targets: [
    // zlib from the system (Debian: zlib1g-dev) for gzip input and `gen --gzip`.
    .systemLibrary(
      name: "CZlib",
      pkgConfig: "zlib",
      providers: [.apt(["zlib1g-dev"])]
    ),
    // libzstd from the system (Debian: libzstd-dev) for zstd (`.zst`) input.
    .systemLibrary(
      name: "CZstd",
      pkgConfig: "libzstd",
      providers: [.apt(["libzstd-dev"])]
    ),
    // The vectorised first pass of the record scanner (SSE2/AVX2/AVX-512 with a
    // portable fallback, chosen at run time): Swift cannot turn a vector
    // comparison into a bit mask, which that pass is made of.
    .target(name: "CJSONIndex"),
    // zlib's CRC-32 with carry-less multiplication where the CPU has it (x86's PCLMULQDQ): a
    // nightly state is checksummed as it is read and written, and zlib's crc32() reads a byte
    // or a word at a time.
    .target(name: "CCRC32"),
    // Intel ISA-L's inflate (Debian: libisal-dev), used for gzip input with the ISAL trait only.
    .systemLibrary(
      name: "CISAL",
      pkgConfig: "libisal",
      providers: [.apt(["libisal-dev"])]
    ),
    .target(
      name: "TxFold",
      dependencies: [
        "CZlib", "CZstd", "CJSONIndex", "CCRC32", .target(name: "CISAL", condition: .when(traits: ["ISAL"])),
      ],
      // Each stage's folder says in a README what it holds and may use (Documentation/Architecture.md).
      exclude: [
        "Platform", "Model", "Input", "Framing", "Decode", "Fold", "Partial", "Query", "Spill", "Order", "Render",
        "Output", "Pipeline",
      ].map { "\($0)/README.md" },
      // Debug builds check the fold's structures after every chunk and merge (`GroupTable+Invariants.swift`).
      swiftSettings: [.define("TXFOLD_INVARIANTS", .when(configuration: .debug))]
    ),
    // `txfold gen`'s synthetic dumps, for the tests and the benchmarks; not part of the library.
    .target(
      name: "TxFoldGen",
      dependencies: ["TxFold"]
    ),
    .executableTarget(
      name: "TxFoldCLI",
      dependencies: [
        "TxFold",
        "TxFoldGen",
        .product(
          name: "ArgumentParser", package: "swift-argument-parser", condition: .when(traits: ["CommandLineTool"])),
      ]
    ),
    .testTarget(
      name: "TxFoldTests",
      // CZstd: the zstd tests compress their fixtures in-process with libzstd.
      dependencies: ["TxFold", "TxFoldGen", "CZstd"]
    ),
    // The library as an app uses it: `import TxFold` without `@testable`, public API only.
    .testTarget(
      name: "LibraryAPITests",
      dependencies: ["TxFold"]
    ),
    // Runs the built `txfold` binary; depending on the executable makes `swift test` build it.
    .testTarget(
      name: "EndToEndTests",
      dependencies: ["TxFold", "TxFoldGen", "TxFoldCLI", "CZstd"]
    ),
  ]
)
