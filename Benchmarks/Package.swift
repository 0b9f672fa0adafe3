// swift-tools-version: 6.1
//
// TxFold's benchmarks: a package of its own, so that the benchmark harness and its malloc
// interposer never become dependencies of the library or the `txfold` tool.
//
//   cd Benchmarks && swift package benchmark                 # every stage, a few minutes on 2 cores
//   swift package benchmark --target Group                   # one stage
//   swift package benchmark --filter '1M-gzip-group'         # one benchmark
//
// One executable target per pipeline stage under `Benchmarks/<Stage>/`, as package-benchmark's
// plugin expects; inputs are generated in each benchmark's setup with `TransactionGenerator`.
import PackageDescription

let package = Package(
  name: "TxFoldBenchmarks",
  platforms: [.macOS(.v15)],
  dependencies: [
    // Named, because a path dependency's identity is its folder's name, which differs between
    // clones and worktrees.
    .package(name: "TxFold", path: ".."),
    // MallocInterposer (the malloc counts) only: the default traits also pull in a runtime
    // interposer for ARC counts on Linux with Swift 6.3, which these benchmarks do not use.
    .package(url: "https://github.com/ordo-one/package-benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
  ],
  targets: [
    // Inputs, in-memory byte sources and the MB/s and records/s metrics shared by the stages.
    .target(
      name: "TxFoldBenchmarkSupport",
      dependencies: [
        .product(name: "TxFold", package: "TxFold"),
        .product(name: "TxFoldGen", package: "TxFold"),
        .product(name: "Benchmark", package: "package-benchmark"),
      ]
    )
  ]
)

/// The stages, one benchmark executable each.
let stages = ["Scan", "Decode", "Fold", "Group"]

package.targets += stages.map { stage in
  .executableTarget(
    name: stage,
    dependencies: [
      "TxFoldBenchmarkSupport",
      .product(name: "TxFold", package: "TxFold"),
      .product(name: "Benchmark", package: "package-benchmark"),
    ],
    path: "Benchmarks/\(stage)",
    plugins: [.plugin(name: "BenchmarkPlugin", package: "package-benchmark")]
  )
}
