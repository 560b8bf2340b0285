import Foundation

// `phototimer-fuzz`: the parsers under libFuzzer (built by `make fuzz` with
// `--sanitize=fuzzer --sanitize=address` and PHOTOTIMER_LIBFUZZER), or, in a plain build, a
// replayer that runs files through one target. PHOTOTIMER_FUZZ_TARGET names the target.

#if PHOTOTIMER_LIBFUZZER
  private let target: FuzzTarget = {
    let name = ProcessInfo.processInfo.environment["PHOTOTIMER_FUZZ_TARGET"] ?? ""
    guard let target = FuzzTarget(rawValue: name) else {
      let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
      FileHandle.standardError.write(
        Data("error: set PHOTOTIMER_FUZZ_TARGET to one of \(names)\n".utf8))
      exit(2)
    }
    return target
  }()

  /// libFuzzer's entry: one input.
  @_cdecl("LLVMFuzzerTestOneInput")
  public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { [UInt8](UnsafeBufferPointer(start: $0, count: size)) } ?? []
    target.run(bytes)
    return 0
  }
#else
  /// Replays inputs: `phototimer-fuzz TARGET FILE|FOLDER…`.
  @main
  struct FuzzReplay {
    static func main() {
      let arguments = Array(CommandLine.arguments.dropFirst())
      guard let name = arguments.first, let target = FuzzTarget(rawValue: name) else {
        let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: "|")
        print("usage: phototimer-fuzz \(names) FILE|FOLDER…")
        exit(2)
      }
      var count = 0
      for path in arguments.dropFirst() {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { continue }
        let files =
          isFolder.boolValue
          ? ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted().map {
            "\(path)/\($0)"
          } : [path]
        for file in files {
          guard let data = FileManager.default.contents(atPath: file) else { continue }
          target.run([UInt8](data))
          count += 1
        }
      }
      print("\(target.rawValue): \(count) inputs replayed, no crash")
    }
  }
#endif
