import Foundation
import PhotoTimer
import PhotoTimerConcurrency
import PhotoTimerFFmpeg
import PhotoTimerImaging
import PhotoTimerJPEG
import PhotoTimerPOSIX
import PhotoTimerTerminal

#if canImport(Glibc)
  import Glibc
#endif

/// A pseudo-terminal whose other side a thread reads and throws away, as a terminal emulator
/// would (without drawing): writes cost what they cost on a real terminal's line.
final class DrainedTerminal: @unchecked Sendable {
  let master: Int32
  let slave: Int32
  private let drained = Locked(0)
  private let done = DispatchSemaphore(value: 0)

  init?() {
    master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
    var unlock: Int32 = 0
    var number: UInt32 = 0
    guard master >= 0, ioctl(master, UInt(0x4004_5431), &unlock) == 0,  // TIOCSPTLCK
      ioctl(master, UInt(0x8004_5430), &number) == 0  // TIOCGPTN
    else { return nil }
    slave = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY)
    guard slave >= 0 else { return nil }
    var settings = termios()
    tcgetattr(slave, &settings)
    cfmakeraw(&settings)
    tcsetattr(slave, TCSANOW, &settings)
    let thread = Thread { [master, drained, done] in
      var buffer = [UInt8](repeating: 0, count: 1 << 16)
      while true {
        let count = read(master, &buffer, buffer.count)
        if count <= 0 { break }
        drained.withLock { $0 += count }
      }
      done.signal()
    }
    thread.start()
  }

  /// Bytes the terminal side has read.
  var bytesRead: Int { drained.withLock { $0 } }

  func write(_ bytes: [UInt8]) {
    bytes.withUnsafeBytes { buffer in
      guard let base = buffer.baseAddress else { return }
      var offset = 0
      while offset < buffer.count {
        let count = Glibc.write(slave, base + offset, buffer.count - offset)
        if count <= 0 { return }
        offset += count
      }
    }
  }

  func close() {
    Glibc.close(slave)
    done.wait()
    Glibc.close(master)
  }
}

extension Benchmarks {
  /// The room a 120 × 40 terminal gives the preview (see the live view's layout): 118
  /// columns, 32 rows of two pixels.
  static let terminalRoom = PreviewSize(width: 118, height: 64)

  /// Preview latency (frame arrival from ffmpeg → its cells written to a terminal) and the
  /// preview's CPU, beside a naive reader that redraws every cell of every frame.
  static func preview() async {
    guard access("/usr/bin/ffmpeg", X_OK) == 0 else {
      print("preview: ffmpeg is not installed (make setup installs it)")
      return
    }
    let small = "testsrc2=size=640x480:rate=30"
    let large = "testsrc2=size=1280x720:rate=30"
    var oursP50: [Double] = []
    var oursP95: [Double] = []
    var naiveP50: [Double] = []
    var naiveP95: [Double] = []
    var bias: [Double] = []
    for _ in 0..<3 {
      guard let ours = await previewRun(small, frames: 300),
        let naive = naiveRun(small, frames: 300)
      else {
        print("preview: the run failed")
        return
      }
      oursP50.append(ours.latency.median.milliseconds)
      oursP95.append(ours.latency.percentile(95).milliseconds)
      naiveP50.append(naive.latency.median.milliseconds)
      naiveP95.append(naive.latency.percentile(95).milliseconds)
      bias.append(ours.originBias.milliseconds)
    }
    func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
    row(
      "preview latency 640×480→120×40, p50", ours: "\(fixed(median(oursP50), 2)) ms",
      baseline: "\(fixed(median(naiveP50), 2)) ms (naive)",
      ratio: ratio(median(naiveP50), median(oursP50)), target: "≤ 10 ms")
    row(
      "preview latency, p95", ours: "\(fixed(median(oursP95), 2)) ms",
      baseline: "\(fixed(median(naiveP95), 2)) ms (naive)",
      ratio: ratio(median(naiveP95), median(oursP95)), target: "≤ 33 ms")
    print(
      "  (3 runs of 300 frames; p50 per run \(oursP50.map { fixed($0, 2) }) ms, p95 "
        + "\(oursP95.map { fixed($0, 2) }) ms; arrival counted from before ffmpeg was started, "
        + "which adds up to \(fixed(median(bias), 2)) ms)")
    var oursCPU: [Double] = []
    var ffmpegCPU: [Double] = []
    var naiveCPU: [Double] = []
    var cells: [Double] = []
    for _ in 0..<3 {
      guard let ours = await previewRun(large, frames: 300),
        let naive = naiveRun(large, frames: 300)
      else {
        print("preview: the 1280×720 run failed")
        return
      }
      oursCPU.append(ours.cpu)
      ffmpegCPU.append(ours.ffmpegCPU)
      naiveCPU.append(naive.cpu)
      cells.append(ours.cellsPerFrame)
    }
    row(
      "preview CPU 1280×720 30 fps in 120×40", ours: "\(fixed(median(oursCPU), 1)) % of a core",
      baseline: "\(fixed(median(naiveCPU), 1)) % (naive)",
      ratio: ratio(median(naiveCPU), median(oursCPU)), target: "≤ 25 %")
    print(
      "  (runs \(oursCPU.map { fixed($0, 1) }) %; ffmpeg's own decoding apart: "
        + "\(fixed(median(ffmpegCPU), 1)) % of a core; \(Int(median(cells))) of "
        + "\(terminalRoom.width * terminalRoom.height / 2) cells rewritten a frame on testsrc2)")
  }

  struct PreviewRun {
    var latency: Sample
    /// Our process's CPU over the run, in % of one core.
    var cpu: Double
    var ffmpegCPU: Double
    var cellsPerFrame: Double
    var originBias: Duration
  }

  /// Ours: a live camera, its preview stream fitted to the terminal, the canvas writing the
  /// changed cells to a pseudo-terminal.
  static func previewRun(_ input: String, frames: Int) async -> PreviewRun? {
    await previewRun(FFmpegCamera(input: input, format: "lavfi", clock: clock), frames: frames)
  }

  /// Ours on any camera source (ffmpeg's child CPU counted apart, when there is one).
  static func previewRun(_ source: any CameraSource, frames: Int) async -> PreviewRun? {
    guard let terminal = DrainedTerminal() else { return nil }
    defer { terminal.close() }
    let before = clock.now
    let camera = LiveCamera(source)
    do {
      try await camera.start()
    } catch {
      return nil
    }
    let opened = clock.now
    var canvas = TerminalCanvas(row: 3, column: 2)
    var latencies: [Duration] = []
    var warmUp = 30
    var written = 0
    var cpuStart = processCPU()
    var wallStart = clock.now
    var ffmpegStart = ffmpegCPUTime()
    do {
      for try await frame in camera.previews(fitting: terminalRoom) {
        let (bytes, cells) = canvas.draw(HalfBlockPicture(frame))
        terminal.write(bytes)
        let arrival = before.advanced(by: frame.timestamp)
        if warmUp > 0 {
          warmUp -= 1
          if warmUp == 0 {
            // Warmed up: count from here.
            cpuStart = processCPU()
            wallStart = clock.now
            ffmpegStart = ffmpegCPUTime()
          }
          continue
        }
        latencies.append(arrival.duration(to: clock.now))
        written += cells
        if latencies.count == frames { break }
      }
    } catch {
      await camera.close()
      return nil
    }
    let wall = wallStart.duration(to: clock.now).secondsValue
    let cpu = (processCPU() - cpuStart) / wall * 100
    let ffmpeg = (ffmpegCPUTime() - ffmpegStart) / wall * 100
    await camera.close()
    return PreviewRun(
      latency: Sample(latencies), cpu: cpu, ffmpegCPU: ffmpeg,
      cellsPerFrame: Double(written) / Double(max(latencies.count, 1)),
      originBias: before.duration(to: opened))
  }

  /// The baseline: ffmpeg's raw frames read in order on a thread, each scaled and every cell
  /// redrawn with its colours, as a first version would.
  static func naiveRun(_ input: String, frames: Int) -> PreviewRun? {
    guard let terminal = DrainedTerminal() else { return nil }
    defer { terminal.close() }
    let child: ChildProcess
    do {
      child = try ChildProcess(command: [
        "ffmpeg", "-hide_banner", "-nostdin", "-loglevel", "error", "-re", "-f", "lavfi", "-i",
        input, "-an", "-f", "rawvideo", "-pix_fmt", "rgb24", "-",
      ])
    } catch {
      return nil
    }
    let size = input.contains("1280") ? (1280, 720) : (640, 480)
    let frameBytes = size.0 * size.1 * 3
    var latencies: [Duration] = []
    var pending: [UInt8] = []
    var cpuStart = processCPU()
    var wallStart = clock.now
    while latencies.count < frames + 30 {
      guard let bytes = try? child.output.read(upTo: 1 << 16), !bytes.isEmpty else { break }
      pending += bytes
      guard pending.count >= frameBytes else { continue }
      let arrival = clock.now
      let pixels = Array(pending[0..<frameBytes])
      pending.removeFirst(frameBytes)
      guard let frame = Frame(width: size.0, height: size.1, pixels: pixels) else { break }
      let scaled = frame.scaled(toFit: terminalRoom)
      var text = "\u{1B}[H"
      for row in stride(from: 0, to: scaled.height - 1, by: 2) {
        text += "\u{1B}[\(3 + row / 2);2H"
        for x in 0..<scaled.width {
          let top = scaled[x, row]
          let bottom = scaled[x, row + 1]
          text +=
            "\u{1B}[38;2;\(top.red);\(top.green);\(top.blue)m"
            + "\u{1B}[48;2;\(bottom.red);\(bottom.green);\(bottom.blue)m▀"
        }
      }
      terminal.write(Array(text.utf8))
      latencies.append(arrival.duration(to: clock.now))
      if latencies.count == 30 {
        cpuStart = processCPU()
        wallStart = clock.now
      }
    }
    let wall = wallStart.duration(to: clock.now).secondsValue
    let cpu = (processCPU() - cpuStart) / wall * 100
    child.terminate(grace: .milliseconds(200))
    _ = child.waitBlocking(timeout: nil)
    child.closePipes()
    guard latencies.count > 30 else { return nil }
    return PreviewRun(
      latency: Sample(Array(latencies.dropFirst(30))), cpu: cpu, ffmpegCPU: 0, cellsPerFrame: 0,
      originBias: .zero)
  }

  /// This process's user and system CPU time, in seconds.
  static func processCPU() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
      + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
  }

  /// The CPU time (seconds) of this process's ffmpeg children, from /proc.
  static func ffmpegCPUTime() -> Double { childrenCPU(of: getpid(), named: "ffmpeg") }
}
