import CV4L2
import Foundation
import Glibc
import PhotoTimerImaging
import PhotoTimerPOSIX
import Synchronization
import Testing

@testable import PhotoTimerGStreamer

/// A stand-in UVC webcam's controls, kept as a driver keeps them: the exposure menu in
/// aperture priority, automatic gain whose value moves on each read while automatic (as
/// vivid's does), automatic white balance; no focus. Every write is recorded.
final class StandInControls: Sendable {
  struct State {
    var values: [UInt32: Int32]
    var writes: [String] = []
    var reads = 0
    /// Controls whose writes the driver refuses (`EBUSY`).
    var refused: Set<UInt32> = []
  }

  let state: Mutex<State>

  init(_ values: [UInt32: Int32]) { state = Mutex(State(values: values)) }

  /// A webcam with exposure, gain and white balance, each automatic.
  static func webcam() -> StandInControls {
    StandInControls([
      phototimer_cid_exposure_auto: 3, phototimer_cid_exposure_absolute: 167,
      phototimer_cid_autogain: 1, phototimer_cid_gain: 40,
      phototimer_cid_auto_white_balance: 1, phototimer_cid_white_balance_temperature: 4600,
    ])
  }

  subscript(id: UInt32) -> Int32? { state.withLock { $0.values[id] } }
  var writes: [String] { state.withLock { $0.writes } }

  static func name(_ id: UInt32) -> String {
    switch id {
    case phototimer_cid_exposure_auto: "auto_exposure"
    case phototimer_cid_exposure_absolute: "exposure_time_absolute"
    case phototimer_cid_autogain: "gain_automatic"
    case phototimer_cid_gain: "gain"
    case phototimer_cid_auto_white_balance: "white_balance_automatic"
    case phototimer_cid_white_balance_temperature: "white_balance_temperature"
    default: "\(id)"
    }
  }

  var driver: V4L2Driver {
    .standIn(open: { path throws(SystemCallError) in
      guard path == "/dev/video0" else { throw SystemCallError(call: "open", errno: .noSuchFile) }
      return 7
    }) { [self] _, request, pointer in
      state.withLock { state -> Int32 in
        func refuse(_ code: Int32 = EINVAL) -> Int32 {
          errno = code
          return -1
        }
        switch request {
        case phototimer_vidioc_querycap:
          let capability = pointer.assumingMemoryBound(to: v4l2_capability.self)
          StandInWebcam.copy("HD Pro Webcam C920", into: &capability.pointee.card)
          capability.pointee.device_caps =
            UInt32(V4L2_CAP_VIDEO_CAPTURE) | UInt32(V4L2_CAP_STREAMING)
          return 0
        case phototimer_vidioc_queryctrl:
          let query = pointer.assumingMemoryBound(to: v4l2_queryctrl.self)
          return state.values[query.pointee.id] != nil ? 0 : refuse()
        case phototimer_vidioc_g_ctrl:
          let control = pointer.assumingMemoryBound(to: v4l2_control.self)
          guard var value = state.values[control.pointee.id] else { return refuse() }
          if control.pointee.id == phototimer_cid_gain, state.values[phototimer_cid_autogain] == 1 {
            state.reads += 1
            value += Int32(state.reads)
          }
          control.pointee.value = value
          return 0
        case phototimer_vidioc_s_ctrl:
          let control = pointer.assumingMemoryBound(to: v4l2_control.self)
          let id = control.pointee.id
          guard state.values[id] != nil else { return refuse() }
          guard !state.refused.contains(id) else { return refuse(EBUSY) }
          state.values[id] = control.pointee.value
          state.writes.append("\(Self.name(id))=\(control.pointee.value)")
          return 0
        default:
          return refuse(ENOTTY)
        }
      }
    }
  }
}

@Suite("A webcam's controls held through a booth session and given back")
struct V4L2ControlsTests {
  /// A folder of its own for the notes of holds.
  static func folder() -> URL {
    FileManager.default.temporaryDirectory.appendingPathComponent(
      "phototimer-controls-\(UUID().uuidString)")
  }

  @Test("Held: each automatic control off and the value it showed written back; given back after")
  func holdAndRelease() async throws {
    let camera = StandInControls.webcam()
    let folder = Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let controls = V4L2Controls("/dev/video0", driver: camera.driver, folder: folder)
    #expect(await controls.available() == ["exposure", "gain", "white balance"])
    let held = try await controls.hold()
    #expect(held.map(\.name) == ["exposure", "gain", "white balance"])
    #expect(held[0].value == 167 && held[2].value == 4600)
    let gain = try #require(held.first { $0.name == "gain" }).value
    #expect(gain > 40, "the gain the automatic chose, read at the hold")
    #expect(
      camera.writes == [
        "auto_exposure=1", "exposure_time_absolute=167", "gain_automatic=0", "gain=\(gain)",
        "white_balance_automatic=0", "white_balance_temperature=4600",
      ])
    #expect(camera[phototimer_cid_gain] == Int32(gain))
    #expect(FileManager.default.fileExists(atPath: controls.file.path))

    try await controls.release()
    #expect(camera[phototimer_cid_exposure_auto] == 3, "aperture priority, as it was")
    #expect(camera[phototimer_cid_autogain] == 1 && camera[phototimer_cid_auto_white_balance] == 1)
    #expect(!FileManager.default.fileExists(atPath: controls.file.path))
    // A second release does nothing.
    let count = camera.writes.count
    try await controls.release()
    #expect(camera.writes.count == count)
  }

  @Test("A control the user set by hand is held as it is and left so")
  func setByHand() async throws {
    let camera = StandInControls.webcam()
    camera.state.withLock {
      $0.values[phototimer_cid_autogain] = 0
      $0.values[phototimer_cid_gain] = 90
    }
    let folder = Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let controls = V4L2Controls("/dev/video0", driver: camera.driver, folder: folder)
    let held = try await controls.hold()
    #expect(held.contains(HeldControl(name: "gain", value: 90)))
    #expect(!camera.writes.contains { $0.hasPrefix("gain") })
    try await controls.release()
    #expect(camera[phototimer_cid_autogain] == 0 && camera[phototimer_cid_gain] == 90)
  }

  @Test("A camera without the controls holds nothing and leaves no note")
  func none() async throws {
    let camera = StandInControls([:])
    let folder = Self.folder()
    let controls = V4L2Controls("/dev/video0", driver: camera.driver, folder: folder)
    #expect(await controls.available().isEmpty)
    #expect(try await controls.hold().isEmpty)
    #expect(!FileManager.default.fileExists(atPath: folder.path))
  }

  @Test("The first write refused (the funnel's fault): nothing held, no note, the request named")
  func firstWriteFault() async throws {
    let camera = StandInControls.webcam()
    let folder = Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let controls = V4L2Controls("/dev/video0", driver: camera.driver, folder: folder)
    let plan = FaultPlan()
    plan.fail("ioctl(VIDIOC_S_CTRL)", with: .ioError)
    await FaultPlan.$current.withValue(plan) {
      await #expect(
        throws: V4L2Controls.ControlError.device(
          .request(
            path: "/dev/video0", SystemCallError(call: "ioctl(VIDIOC_S_CTRL)", errno: .ioError)))
      ) {
        _ = try await controls.hold()
      }
    }
    #expect(plan.injected == ["ioctl(VIDIOC_S_CTRL)"])
    #expect(camera.writes.isEmpty && camera[phototimer_cid_exposure_auto] == 3)
    #expect(!FileManager.default.fileExists(atPath: controls.file.path))
  }

  @Test("A write refused halfway: what was changed is given back before the error")
  func halfwayFault() async throws {
    let camera = StandInControls.webcam()
    camera.state.withLock { $0.refused = [phototimer_cid_white_balance_temperature] }
    let folder = Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let controls = V4L2Controls("/dev/video0", driver: camera.driver, folder: folder)
    await #expect(throws: V4L2Controls.ControlError.self) { _ = try await controls.hold() }
    #expect(camera[phototimer_cid_exposure_auto] == 3)
    #expect(camera[phototimer_cid_autogain] == 1 && camera[phototimer_cid_auto_white_balance] == 1)
    #expect(!FileManager.default.fileExists(atPath: controls.file.path))
  }

  @Test("A note that cannot be written: nothing is changed, and the words say where")
  func unwritableNote() async throws {
    let camera = StandInControls.webcam()
    let controls = V4L2Controls(
      "/dev/video0", driver: camera.driver, folder: URL(fileURLWithPath: "/proc/phototimer"))
    do {
      _ = try await controls.hold()
      Issue.record("held without its note")
    } catch let error as V4L2Controls.ControlError {
      #expect("\(error)".contains("/proc/phototimer/dev-video0.json could not be written"))
    }
    #expect(camera.writes.isEmpty)
  }

  @Test("A process that died holding the camera: the next open gives the controls back")
  func recoverAfterDeath() async throws {
    let camera = StandInControls.webcam()
    let folder = Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let controls = V4L2Controls("/dev/video0", driver: camera.driver, folder: folder)
    _ = try await controls.hold()
    // NB: the note made as if another process (one that has ended) wrote it.
    let child = try ChildProcess(command: ["/bin/true"])
    _ = try await child.wait()
    var note = try JSONDecoder().decode(
      V4L2Controls.Note.self, from: Data(contentsOf: controls.file))
    note.pid = child.pid
    try JSONEncoder().encode(note).write(to: controls.file)
    let left = try #require(V4L2Controls.leftHeld("/dev/video0", folder: folder))
    #expect(left.pid == child.pid && !left.running)

    let given = V4L2Controls.recover("/dev/video0", driver: camera.driver, folder: folder)
    #expect(given == ["exposure", "gain", "white balance"])
    #expect(camera[phototimer_cid_exposure_auto] == 3 && camera[phototimer_cid_autogain] == 1)
    #expect(!FileManager.default.fileExists(atPath: controls.file.path))
  }

  @Test("A hold by a process still running, or by this one, is not taken from it")
  func recoverLeavesTheLiving() async throws {
    let camera = StandInControls.webcam()
    let folder = Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let controls = V4L2Controls("/dev/video0", driver: camera.driver, folder: folder)
    _ = try await controls.hold()
    #expect(V4L2Controls.recover("/dev/video0", driver: camera.driver, folder: folder).isEmpty)
    var note = try JSONDecoder().decode(
      V4L2Controls.Note.self, from: Data(contentsOf: controls.file))
    note.pid = 1
    note.started = try #require(V4L2Controls.started(1))
    try JSONEncoder().encode(note).write(to: controls.file)
    #expect(V4L2Controls.recover("/dev/video0", driver: camera.driver, folder: folder).isEmpty)
    #expect(camera[phototimer_cid_autogain] == 0)
    // A pid used again by another process (its start differs) is not the holder.
    note.started = "-1"
    try JSONEncoder().encode(note).write(to: controls.file)
    #expect(!V4L2Controls.recover("/dev/video0", driver: camera.driver, folder: folder).isEmpty)
    #expect(camera[phototimer_cid_autogain] == 1)
  }

  @Test("The notes' folder: XDG_STATE_HOME, else ~/.local/state")
  func folders() {
    #expect(
      V4L2Controls.defaultFolder(environment: ["XDG_STATE_HOME": "/s", "HOME": "/h"]).path
        == "/s/phototimer/held-controls")
    #expect(
      V4L2Controls.defaultFolder(environment: ["HOME": "/h"]).path
        == "/h/.local/state/phototimer/held-controls")
  }
}
