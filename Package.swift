// swift-tools-version: 6.2
import PackageDescription

let package = Package(
  name: "phototimer",
  platforms: [.macOS(.v15), .iOS(.v18)],
  products: [
    .library(name: "PhotoTimer", targets: ["PhotoTimer"]),
    .library(name: "PhotoTimerTesting", targets: ["PhotoTimerTesting"]),
    .executable(name: "phototimer", targets: ["PhotoTimerCLI"]),
    .executable(name: "phototimer-bench", targets: ["PhotoTimerBenchmarks"]),
  ],
  targets: [
    // The engine and the view model: no C, no Glibc, no platform code.
    .target(name: "PhotoTimer"),
    // The test clock and test doubles, for this package's tests and for apps' own.
    .target(name: "PhotoTimerTesting", dependencies: ["PhotoTimer"]),
    // Arguments, terminal output and exit codes only.
    .executableTarget(name: "PhotoTimerCLI", dependencies: ["PhotoTimer"]),
    .executableTarget(
      name: "PhotoTimerBenchmarks", dependencies: ["PhotoTimer", "CMallocControl"]),
    // glibc allocator controls for the benchmark's memory figure only.
    .target(name: "CMallocControl"),
    .testTarget(
      name: "PhotoTimerTests",
      dependencies: ["PhotoTimer", "PhotoTimerTesting"]
    ),
    // Runs the built `phototimer` binary end to end.
    .testTarget(name: "PhotoTimerCLITests", dependencies: ["PhotoTimerCLI"]),
  ],
  swiftLanguageModes: [.v6]
)
