import Foundation
import PhotoTimer
import PhotoTimerCommandLine
import PhotoTimerImaging

/// How a kind of camera is found, opened and named: the half of a ``CameraKind`` that reaches
/// devices and programs.
///
/// Each kind says which of its cameras are present now (for `auto`, `doctor` and the window's
/// menu), how one opens and takes photos, its sizes for the menu, and how it is named in the
/// output and remembered in the window's settings. Every kind in ``CameraKinds/all`` conforms
/// (a test checks it); ``CameraChoice/driver`` finds a choice's.
package protocol CameraDriver: CameraKind {
  /// This kind's cameras present now, the likeliest first; may run a program or read a
  /// device, so call it off the main thread.
  func discover() async -> [CameraChoice]

  /// The command line's mistake about `choice` found before anything opens (a missing file),
  /// said with what to do; `nil` when there is none.
  func check(_ choice: CameraChoice) -> (any Error)?

  /// Opens `choice` as the options ask (its mode, its size), or `nil` for no pixels at all.
  ///
  /// - Throws: ``CameraOpenError/usage(_:)`` when the options ask for what the camera cannot
  ///   do (a size it lacks), any other error when it cannot be opened.
  func open(
    _ choice: CameraChoice, _ options: CommandOptions.RunOptions
  ) async throws
    -> (any CameraSource)?

  /// The engine's services over `camera` (the source ``open(_:_:)`` gave, or the screen's
  /// live camera over it), `nil` for a camera whose photos the store's pipeline takes.
  func services(
    _ choice: CameraChoice, camera: (any CameraSource)?, options: CommandOptions.RunOptions
  ) throws -> PhotoTimerServices?

  /// Whether the preview is mirrored unless asked otherwise: a camera facing the user.
  func mirrored(_ choice: CameraChoice) -> Bool

  /// The camera's name in the window's camera menu.
  func menuName(_ choice: CameraChoice) -> String

  /// The camera as the output names it (never a user or a password), from `source`, the
  /// camera ``open(_:_:)`` gave.
  func identity(_ choice: CameraChoice, source: (any CameraSource)?) -> CameraIdentity

  /// The sizes the window's menu offers for `choice`; empty when it has no choice of size.
  func sizes(_ choice: CameraChoice) async -> [(title: String, request: ModeRequest)]

  /// What `doctor` says about this kind on this machine, each line with its fix.
  func diagnose(_ options: CommandOptions.RunOptions) async -> [DoctorLine]
}

extension CameraDriver {
  package func discover() async -> [CameraChoice] { [] }
  package func check(_ choice: CameraChoice) -> (any Error)? { nil }
  package func services(
    _ choice: CameraChoice, camera: (any CameraSource)?, options: CommandOptions.RunOptions
  ) throws -> PhotoTimerServices? { nil }
  package func mirrored(_ choice: CameraChoice) -> Bool { false }
  package func sizes(_ choice: CameraChoice) async -> [(title: String, request: ModeRequest)] {
    []
  }
  package func diagnose(_ options: CommandOptions.RunOptions) async -> [DoctorLine] { [] }
}

extension CameraKind {
  /// This kind's driver.
  ///
  /// Every kind the registry holds has one: a kind without is a programming error, stopped
  /// here (and found by `CameraDriverTests` before it ships).
  package var driver: any CameraDriver {
    guard let driver = self as? any CameraDriver else {
      preconditionFailure("the camera kind \(scheme) has no driver in PhotoTimerSetup")
    }
    return driver
  }
}

extension CameraChoice {
  /// The driver of this choice's kind.
  package var driver: any CameraDriver { kind.driver }
}

extension CameraKinds {
  /// `auto`'s camera: the first camera present of the first automatic kind that has one, else
  /// the scene camera; asks devices and may run a program, so call it off the main thread.
  package static func resolveAuto() async -> CameraChoice {
    for kind in all where kind.automatic {
      if let first = await kind.driver.discover().first { return first }
    }
    return .scene(.daylight)
  }

  /// Every camera present now, kind by kind in the registry's order: the window's menu.
  package static func discoverAll() async -> [CameraChoice] {
    var found: [CameraChoice] = []
    for kind in all { found += await kind.driver.discover() }
    return found
  }
}

/// Why a camera did not open.
package enum CameraOpenError: Error, CustomStringConvertible {
  /// The options ask for what the camera cannot do (a size it lacks): the command line's
  /// mistake, exit status 2.
  case usage(any Error)

  package var description: String {
    switch self {
    case .usage(let error): "\(error)"
    }
  }
}

/// One line of `doctor`: a mark, what it is about, what was found or what to do, and the
/// indented lines under it.
package struct DoctorLine: Sendable, Equatable {
  /// How it stands.
  package enum Mark: String, Sendable {
    case ok = "✓"
    case warning = "!"
    case problem = "✗"
  }

  package var mark: Mark
  package var subject: String
  package var text: String
  /// Lines printed under it, already indented.
  package var details: [String]

  package init(_ mark: Mark, _ subject: String, _ text: String, details: [String] = []) {
    self.mark = mark
    self.subject = subject
    self.text = text
    self.details = details
  }
}
