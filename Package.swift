// swift-tools-version: 6.2
import PackageDescription

// The layers, lowest first, are declared in layers.json: a target depends only on layers below
// it, imports only what it declares here directly, and includes only the C libraries it declares
// (scripts/check-layers.py, in `make lint`, refuses anything else):
//
//   1. C modules: Debian's libraries (system library targets) and the project's C wrappers.
//   2. PhotoTimerConcurrency: locks, parked continuations, a value that arrives once.
//   3. PhotoTimerPOSIX (the kernel, every system call through one funnel) beside PhotoTimer
//      (the engine, the view model, the presentation: no platform code); neither uses the other.
//   4. Platform-free libraries over the engine: PhotoTimerImaging, PhotoTimerLocation,
//      PhotoTimerTesting.
//   5. PhotoTimerCommandLine: the command-line grammar (options, help, manual page,
//      completions, the camera kinds as `--camera` names them), pure and platform-free.
//   6. Pictures: PhotoTimerJPEG (files), PhotoTimerTerminal (cells), PhotoTimerFaces (dlib).
//   7. The pieces that reach a device, a program or a socket: PhotoTimerGPSD, PhotoTimerFFmpeg,
//      PhotoTimerGPhoto2, PhotoTimerGStreamer, PhotoTimerRemote; and PhotoTimerHarnesses.
//   8. PhotoTimerSetup: what both programs set up from the same options (the camera drivers,
//      the camera and services they open, the remote link, the advice for errors).
//   9. The programs: PhotoTimerCLI (`phototimer`), PhotoTimerGTK (`phototimer-gtk`), the
//      benchmarks and the fuzzers. Test targets are above them all.

let package = Package(
  name: "phototimer",
  platforms: [.macOS(.v15), .iOS(.v18)],
  products: [
    .library(name: "PhotoTimer", targets: ["PhotoTimer"]),
    .library(name: "PhotoTimerTesting", targets: ["PhotoTimerTesting"]),
    .library(name: "PhotoTimerLocation", targets: ["PhotoTimerLocation"]),
    .library(name: "PhotoTimerGPSD", targets: ["PhotoTimerGPSD"]),
    .library(name: "PhotoTimerPOSIX", targets: ["PhotoTimerPOSIX"]),
    .library(name: "PhotoTimerImaging", targets: ["PhotoTimerImaging"]),
    .library(name: "PhotoTimerJPEG", targets: ["PhotoTimerJPEG"]),
    .library(name: "PhotoTimerTerminal", targets: ["PhotoTimerTerminal"]),
    .library(name: "PhotoTimerFFmpeg", targets: ["PhotoTimerFFmpeg"]),
    .library(name: "PhotoTimerGPhoto2", targets: ["PhotoTimerGPhoto2"]),
    .library(name: "PhotoTimerGStreamer", targets: ["PhotoTimerGStreamer"]),
    .library(name: "PhotoTimerRemote", targets: ["PhotoTimerRemote"]),
    .library(name: "PhotoTimerFaces", targets: ["PhotoTimerFaces"]),
    .executable(name: "phototimer", targets: ["PhotoTimerCLI"]),
    .executable(name: "phototimer-gtk", targets: ["PhotoTimerGTK"]),
    .executable(name: "phototimer-bench", targets: ["PhotoTimerBenchmarks"]),
    .executable(name: "phototimer-fuzz", targets: ["PhotoTimerFuzz"]),
  ],
  targets: [
    // The concurrency primitives every layer shares (a lock, parked continuations, a value
    // that arrives once, the CPU executor off the cooperative pool): the leaf, with no
    // dependency and no system call, so the kernel's layer (POSIX) and the engine both build
    // on it without depending on each other.
    .target(name: "PhotoTimerConcurrency"),
    // The engine and the view model: no C, no Glibc, no platform code.
    .target(name: "PhotoTimer", dependencies: ["PhotoTimerConcurrency"]),
    // Offline reverse geocoding over the bundled GeoNames places; no platform code.
    // NB: optimised in every build: unoptimised, loading the 34,000 places takes over a second,
    // and a debug build's location step then missed a 2 s count under load (the tests' flake).
    .target(
      name: "PhotoTimerLocation", dependencies: ["PhotoTimer"],
      resources: [.copy("Resources/cities15000.tsv"), .copy("Resources/countries.tsv")],
      swiftSettings: [.unsafeFlags(["-O"])]),
    // The one layer that touches the kernel: the syscall funnel (EINTR, errno, fault
    // injection), owned descriptors, wake pipes, poll, TCP connect, reader threads, child
    // processes, signals and the terminal mode. Everything above it sees no raw descriptor.
    .target(name: "PhotoTimerPOSIX", dependencies: ["PhotoTimerConcurrency", "CPhotoTimerPOSIX"]),
    // What Swift's Glibc module does not declare (pipe2 needs _GNU_SOURCE).
    .target(name: "CPhotoTimerPOSIX"),
    // gpsd's JSON protocol over a socket, and the location step built on it.
    .target(
      name: "PhotoTimerGPSD",
      dependencies: [
        "PhotoTimerConcurrency", "PhotoTimer", "PhotoTimerLocation", "PhotoTimerPOSIX",
      ]
    ),
    // Frames, the scene camera, metering, filter suggestion and looks; no platform code.
    .target(name: "PhotoTimerImaging", dependencies: ["PhotoTimerConcurrency", "PhotoTimer"]),
    // The photo file: JPEG through libjpeg-turbo, EXIF through libexif, PNG through libpng,
    // the image-file camera, and atomic saving into the Pictures folder (POSIX).
    .target(
      name: "PhotoTimerJPEG",
      dependencies: [
        "PhotoTimerConcurrency",
        "PhotoTimer", "PhotoTimerImaging", "PhotoTimerPOSIX", "CTurboJPEG", "CExif", "CPNG",
      ]),
    // Pictures in a terminal: half-block cells in 24-bit colour redrawn by difference, and
    // the kitty graphics protocol. Bytes only: writing them is the caller's.
    .target(name: "PhotoTimerTerminal", dependencies: ["PhotoTimerImaging"]),
    // Cameras through ffmpeg as a child process: webcams, IP cameras, test sources (POSIX).
    .target(
      name: "PhotoTimerFFmpeg",
      dependencies: ["PhotoTimerConcurrency", "PhotoTimer", "PhotoTimerImaging", "PhotoTimerPOSIX"]),
    // DSLRs through the gphoto2 tool; the camera's JPEG kept, our EXIF merged in (POSIX).
    .target(
      name: "PhotoTimerGPhoto2",
      dependencies: [
        "PhotoTimerConcurrency", "PhotoTimer", "PhotoTimerImaging", "PhotoTimerJPEG",
        "PhotoTimerPOSIX",
      ]),
    // Local cameras in-process through GStreamer: V4L2 webcams (v4l2src), PipeWire cameras
    // (pipewiresrc) and the test pattern; the V4L2 device's own description and controls
    // through its descriptor.
    .target(
      name: "PhotoTimerGStreamer",
      dependencies: [
        "PhotoTimerConcurrency",
        "PhotoTimer", "PhotoTimerImaging", "PhotoTimerJPEG", "PhotoTimerPOSIX", "CGStreamer",
        "CV4L2",
      ]),
    .systemLibrary(
      name: "CGStreamer", pkgConfig: "phototimer-gstreamer",
      providers: [
        .apt([
          "libgstreamer1.0-dev", "libgstreamer-plugins-base1.0-dev", "gstreamer1.0-plugins-good",
        ])
      ]),
    // The phone as remote: an HTTP server (civetweb) serving the page, the preview over a
    // WebSocket, the events as Server-Sent Events and the intents as POSTs; pairing tokens and
    // QR codes (libqrencode). The routing and token checks are pure Swift (fuzzed).
    .target(
      name: "PhotoTimerRemote",
      dependencies: [
        "PhotoTimerConcurrency", "PhotoTimer", "PhotoTimerPOSIX", "CCivetWeb", "CQRencode",
      ]),
    // Printing through CUPS: paper checked, jobs sent and followed, the printer's state.
    .target(
      name: "PhotoTimerCUPS", dependencies: ["PhotoTimerConcurrency", "PhotoTimer", "CCUPS"]),
    // NB: Debian's libcups2-dev ships no pkg-config file (cups-config instead); its headers
    // are in /usr/include.
    .systemLibrary(name: "CCUPS", providers: [.apt(["libcups2-dev"])]),
    // NB: Debian's civetweb ships no pkg-config file; its header is in /usr/include.
    .systemLibrary(name: "CCivetWeb", providers: [.apt(["libcivetweb-dev"])]),
    .systemLibrary(
      name: "CQRencode", pkgConfig: "libqrencode", providers: [.apt(["libqrencode-dev"])]),
    // The V4L2 request numbers (macros Swift cannot see) and an ioctl for pointers.
    .target(name: "CV4L2"),
    .systemLibrary(
      name: "CTurboJPEG", pkgConfig: "libturbojpeg",
      providers: [.apt(["libturbojpeg0-dev"]), .brew(["jpeg-turbo"])]),
    // Faces through dlib: the people in the picture (a FaceFinder for PhotoTimerImaging).
    .target(
      name: "PhotoTimerFaces",
      dependencies: ["PhotoTimerImaging", "PhotoTimerConcurrency", "CDlibFaces"]),
    // dlib's face detector and landmark model behind a small C interface (C++ inside).
    .target(
      name: "CDlibFaces",
      // NB: optimised in every build: at -O0 dlib took 139 s to read its model and seconds a
      // frame to detect (0.6 s and milliseconds at -O2).
      // NB: the standard is set here, not for the package: a package-wide C++ standard is passed to
      // the C modules' symbol graphs too, and clang refuses it there (scripts/build-docs.sh).
      cxxSettings: [.unsafeFlags(["-O2", "-std=c++17"]), .define("NDEBUG")],
      linkerSettings: [.linkedLibrary("dlib"), .linkedLibrary("lapack"), .linkedLibrary("blas")]),
    .systemLibrary(
      name: "CExif", pkgConfig: "libexif", providers: [.apt(["libexif-dev"]), .brew(["libexif"])]),
    .systemLibrary(
      name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"]), .brew(["libpng"])]),
    // The test clock and test doubles, for this package's tests and for apps' own.
    .target(name: "PhotoTimerTesting", dependencies: ["PhotoTimerConcurrency", "PhotoTimer"]),
    // Real servers and tools started for tests and benchmarks (gpsfake, Xvfb, a PipeWire
    // camera, the process table): in no product.
    .target(
      name: "PhotoTimerHarnesses",
      dependencies: ["PhotoTimerConcurrency", "PhotoTimer", "PhotoTimerImaging", "PhotoTimerPOSIX"]),
    // Pango and Cairo (the booth's text); the flags come from scripts/pkgconfig.sh.
    .systemLibrary(
      name: "CPangoCairo", pkgConfig: "phototimer-text",
      providers: [.apt(["libpango1.0-dev", "libcairo2-dev"])]),
    // The booth's text fields drawn for its collage, with Pango and Cairo in memory.
    .target(name: "PhotoTimerText", dependencies: ["PhotoTimerImaging", "CPangoCairo"]),
    // The command-line grammar of both programs: the options, their help, the manual pages,
    // the shells' completions, the exit codes and the camera kinds as `--camera` names them (the
    // one registry). Pure: no C library, no platform module.
    .target(
      name: "PhotoTimerCommandLine",
      dependencies: ["PhotoTimer", "PhotoTimerImaging", "PhotoTimerLocation"]),
    // What both programs set up from the same options: the camera drivers, the camera and
    // services they ask for, the remote link, the advice for errors.
    .target(
      name: "PhotoTimerSetup",
      dependencies: [
        "PhotoTimerConcurrency", "PhotoTimerCommandLine",
        "PhotoTimer", "PhotoTimerLocation", "PhotoTimerGPSD", "PhotoTimerImaging", "PhotoTimerJPEG",
        "PhotoTimerFFmpeg", "PhotoTimerGPhoto2", "PhotoTimerGStreamer", "PhotoTimerPOSIX",
        "PhotoTimerRemote", "PhotoTimerFaces", "PhotoTimerText", "PhotoTimerCUPS",
      ]),
    // Terminal output only.
    .executableTarget(
      name: "PhotoTimerCLI",
      dependencies: [
        "PhotoTimerConcurrency", "PhotoTimerRemote",
        "PhotoTimer", "PhotoTimerSetup", "PhotoTimerLocation", "PhotoTimerGPSD",
        "PhotoTimerImaging", "PhotoTimerJPEG", "PhotoTimerPOSIX", "PhotoTimerTerminal",
        "PhotoTimerCommandLine", "PhotoTimerText",
      ]),
    // The desktop window: GTK 4 drives the unchanged view model; the main actor runs in GLib's
    // loop. Apart from the command so that `phototimer` keeps no GTK dependency.
    .executableTarget(
      name: "PhotoTimerGTK",
      dependencies: [
        "PhotoTimerConcurrency",
        "PhotoTimer", "PhotoTimerSetup", "PhotoTimerImaging", "PhotoTimerJPEG",
        "PhotoTimerPOSIX", "PhotoTimerRemote", "PhotoTimerCommandLine", "CGTK",
      ]),
    // GTK 4 and libcanberra; the flags come from scripts/pkgconfig.sh (see the Makefile).
    .systemLibrary(
      name: "CGTK", pkgConfig: "phototimer-gtk",
      providers: [.apt(["libgtk-4-dev", "libcanberra-dev"])]),
    .executableTarget(
      name: "PhotoTimerBenchmarks",
      dependencies: [
        "PhotoTimerConcurrency",
        "PhotoTimer", "PhotoTimerLocation", "PhotoTimerGPSD", "PhotoTimerImaging", "PhotoTimerJPEG",
        "PhotoTimerFFmpeg", "PhotoTimerGStreamer", "PhotoTimerHarnesses", "PhotoTimerPOSIX",
        "PhotoTimerTerminal", "PhotoTimerSetup", "PhotoTimerRemote", "PhotoTimerFaces",
        "PhotoTimerCommandLine", "PhotoTimerText", "PhotoTimerCUPS", "CMallocControl",
      ]),
    // The hand-written parsers under libFuzzer (`make fuzz`), or a replayer of their corpora.
    .executableTarget(
      name: "PhotoTimerFuzz",
      dependencies: [
        "PhotoTimer", "PhotoTimerSetup", "PhotoTimerFFmpeg", "PhotoTimerGPSD",
        "PhotoTimerGStreamer", "PhotoTimerImaging", "PhotoTimerJPEG", "PhotoTimerLocation",
        "PhotoTimerRemote", "PhotoTimerCommandLine",
      ]),
    // glibc allocator controls for the benchmark's memory figure only.
    .target(name: "CMallocControl"),
    .testTarget(
      name: "PhotoTimerTests",
      dependencies: ["PhotoTimerConcurrency", "PhotoTimer", "PhotoTimerTesting"]
    ),
    // The POSIX layer: fault injection through the funnel, child processes, descriptors.
    .testTarget(
      name: "PhotoTimerPOSIXTests",
      dependencies: [
        "CPhotoTimerPOSIX", "PhotoTimer", "PhotoTimerConcurrency", "PhotoTimerPOSIX",
        "PhotoTimerHarnesses",
      ]),
    .testTarget(
      name: "PhotoTimerLocationTests",
      dependencies: [
        "PhotoTimer", "PhotoTimerConcurrency", "PhotoTimerLocation", "PhotoTimerTesting",
      ],
      // NB: the brute-force reference scans 34,000 places for each of 10,000 points; unoptimised
      // that takes a minute of `make test`.
      swiftSettings: [.unsafeFlags(["-O"])]),
    // Against real gpsd, started by the tests through gpsfake (package gpsd-clients).
    .testTarget(
      name: "PhotoTimerGPSDTests",
      dependencies: [
        "PhotoTimer",
        "PhotoTimerGPSD", "PhotoTimerLocation", "PhotoTimerPOSIX", "PhotoTimerHarnesses",
      ],
      resources: [.copy("Fixtures")]),
    .testTarget(
      name: "PhotoTimerImagingTests",
      dependencies: [
        "PhotoTimer", "PhotoTimerConcurrency", "PhotoTimerImaging", "PhotoTimerTesting",
      ],
      // NB: pixel loops over whole frames are ~30× slower unoptimised.
      swiftSettings: [.unsafeFlags(["-O"])]),
    // The photo file, read back with exiftool and libjpeg's djpeg (installed by the setup).
    .testTarget(
      name: "PhotoTimerJPEGTests",
      dependencies: [
        "PhotoTimer",
        "PhotoTimerJPEG", "PhotoTimerImaging", "PhotoTimerTesting", "PhotoTimerPOSIX",
      ],
      resources: [.copy("Fixtures")], swiftSettings: [.unsafeFlags(["-O"])]),
    // Faces through dlib on real photographs (the model from libdlib-data).
    .testTarget(
      name: "PhotoTimerFacesTests",
      dependencies: [
        "PhotoTimer", "PhotoTimerConcurrency", "PhotoTimerFaces", "PhotoTimerImaging",
        "PhotoTimerJPEG",
      ],
      resources: [.copy("Fixtures")], swiftSettings: [.unsafeFlags(["-O"])]),
    // Against real ffmpeg and its lavfi test sources (installed by the setup).
    .testTarget(
      name: "PhotoTimerFFmpegTests",
      dependencies: [
        "PhotoTimer",
        "PhotoTimerFFmpeg", "PhotoTimerImaging", "PhotoTimerJPEG", "PhotoTimerPOSIX",
        "PhotoTimerHarnesses",
      ]),
    // gphoto2 driven through stand-in scripts (no camera here) and the real tool for detection.
    .testTarget(
      name: "PhotoTimerGPhoto2Tests",
      dependencies: [
        "PhotoTimer", "PhotoTimerConcurrency",
        "PhotoTimerGPhoto2", "PhotoTimerImaging", "PhotoTimerJPEG", "PhotoTimerPOSIX",
        "PhotoTimerTesting", "PhotoTimerHarnesses",
      ]),
    // GStreamer's test pattern and PipeWire camera here; a real V4L2 driver (vivid) in a VM
    // the tests boot (scripts/vm).
    .testTarget(
      name: "PhotoTimerGStreamerTests",
      dependencies: [
        "PhotoTimer",
        "PhotoTimerGStreamer", "PhotoTimerImaging", "PhotoTimerJPEG", "PhotoTimerPOSIX",
        "PhotoTimerTesting", "PhotoTimerHarnesses", "CV4L2",
      ], swiftSettings: [.unsafeFlags(["-O"])]),
    .testTarget(
      name: "PhotoTimerTerminalTests", dependencies: ["PhotoTimerTerminal", "PhotoTimerImaging"]),
    // The window: its options, and the built `phototimer-gtk` under Xvfb (started by the tests).
    .testTarget(
      name: "PhotoTimerGTKTests",
      dependencies: [
        "PhotoTimer",
        "PhotoTimerGTK", "PhotoTimerSetup", "PhotoTimerConcurrency", "PhotoTimerPOSIX",
        "PhotoTimerHarnesses", "PhotoTimerTesting", "PhotoTimerCommandLine",
      ]),
    // The remote's router, and its server on loopback spoken to as raw HTTP.
    .testTarget(
      name: "PhotoTimerRemoteTests",
      dependencies: [
        "PhotoTimerConcurrency",
        "PhotoTimerRemote", "PhotoTimer", "PhotoTimerImaging", "PhotoTimerPOSIX",
        "PhotoTimerTesting", "PhotoTimerHarnesses",
      ]),
    // Runs the built `phototimer` binary end to end.
    .testTarget(
      name: "PhotoTimerCLITests",
      dependencies: [
        "PhotoTimerConcurrency", "PhotoTimerFFmpeg", "PhotoTimerGPSD", "PhotoTimerGPhoto2",
        "PhotoTimerLocation",
        "PhotoTimer", "PhotoTimerCLI", "PhotoTimerSetup", "PhotoTimerPOSIX",
        "PhotoTimerHarnesses", "PhotoTimerImaging", "PhotoTimerJPEG", "PhotoTimerTerminal",
        "PhotoTimerTesting", "PhotoTimerRemote", "PhotoTimerCommandLine",
      ]),
    // Printing through a CUPS of the tests' own.
    .testTarget(
      name: "PhotoTimerCUPSTests",
      dependencies: ["PhotoTimerCUPS", "PhotoTimer", "PhotoTimerHarnesses", "PhotoTimerPOSIX"]),
    // The booth's text, drawn and looked at.
    .testTarget(
      name: "PhotoTimerTextTests", dependencies: ["PhotoTimerText", "PhotoTimerImaging"]),
    // The command-line grammar alone: parsed, helped and completed with no C library linked.
    .testTarget(
      name: "PhotoTimerCommandLineTests",
      dependencies: [
        "PhotoTimerCommandLine", "PhotoTimer", "PhotoTimerImaging", "PhotoTimerLocation",
      ]),
  ],
  swiftLanguageModes: [.v6]
)
