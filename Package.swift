// swift-tools-version: 6.2
import PackageDescription

let package = Package(
  name: "phototimer",
  platforms: [.macOS(.v15), .iOS(.v18)],
  products: [
    .library(name: "PhotoTimer", targets: ["PhotoTimer"]),
    .library(name: "PhotoTimerTesting", targets: ["PhotoTimerTesting"]),
    .library(name: "PhotoTimerLocation", targets: ["PhotoTimerLocation"]),
    .library(name: "PhotoTimerGPSD", targets: ["PhotoTimerGPSD"]),
    .executable(name: "phototimer", targets: ["PhotoTimerCLI"]),
    .executable(name: "phototimer-bench", targets: ["PhotoTimerBenchmarks"]),
  ],
  targets: [
    // The engine and the view model: no C, no Glibc, no platform code.
    .target(name: "PhotoTimer"),
    // Offline reverse geocoding over the bundled GeoNames places; no platform code.
    .target(
      name: "PhotoTimerLocation", dependencies: ["PhotoTimer"],
      resources: [.copy("Resources/cities15000.tsv"), .copy("Resources/countries.tsv")]),
    // gpsd's JSON protocol over a POSIX socket, and the location step built on it (Linux).
    .target(name: "PhotoTimerGPSD", dependencies: ["PhotoTimer", "PhotoTimerLocation"]),
    // The test clock and test doubles, for this package's tests and for apps' own.
    .target(name: "PhotoTimerTesting", dependencies: ["PhotoTimer"]),
    // Arguments, terminal output and exit codes only.
    .executableTarget(
      name: "PhotoTimerCLI", dependencies: ["PhotoTimer", "PhotoTimerLocation", "PhotoTimerGPSD"]),
    .executableTarget(
      name: "PhotoTimerBenchmarks",
      dependencies: ["PhotoTimer", "PhotoTimerLocation", "PhotoTimerGPSD", "CMallocControl"]),
    // glibc allocator controls for the benchmark's memory figure only.
    .target(name: "CMallocControl"),
    .testTarget(
      name: "PhotoTimerTests",
      dependencies: ["PhotoTimer", "PhotoTimerTesting"]
    ),
    .testTarget(
      name: "PhotoTimerLocationTests", dependencies: ["PhotoTimerLocation", "PhotoTimerTesting"],
      // NB: the brute-force reference scans 34,000 places for each of 10,000 points; unoptimised
      // that takes a minute of `make test`.
      swiftSettings: [.unsafeFlags(["-O"])]),
    // Against real gpsd, started by the tests through gpsfake (package gpsd-clients).
    .testTarget(
      name: "PhotoTimerGPSDTests", dependencies: ["PhotoTimerGPSD", "PhotoTimerLocation"],
      resources: [.copy("Fixtures")]),
    // Runs the built `phototimer` binary end to end.
    .testTarget(name: "PhotoTimerCLITests", dependencies: ["PhotoTimerCLI"]),
  ],
  swiftLanguageModes: [.v6]
)
