import Foundation
import PhotoTimer
import PhotoTimerCommandLine
import PhotoTimerConcurrency
import PhotoTimerGPSD
import PhotoTimerJPEG
import PhotoTimerLocation
import PhotoTimerPOSIX
import PhotoTimerSetup

/// `phototimer doctor`: what phototimer can use, and for each problem its fix in one line.
struct Doctor {
  let options: CommandOptions.RunOptions

  typealias Mark = DoctorLine.Mark

  /// Prints the report and returns the exit status: 1 when a photo could not be taken.
  func report() async -> Int32 {
    var problems = 0
    func line(_ mark: Mark, _ subject: String, _ text: String) {
      if mark == .problem { problems += 1 }
      let padded = subject.padding(toLength: 14, withPad: " ", startingAt: 0)
      StandardStream.output.write("\(mark.rawValue) \(padded) \(text)\n")
    }
    StandardStream.output.write("phototimer \(PhotoTimerVersion.current) doctor\n\n")

    // Cameras: what each kind finds on this machine, in the registry's order.
    for kind in CameraKinds.all {
      for found in await kind.driver.diagnose(options) {
        line(found.mark, found.subject, found.text)
        for detail in found.details { StandardStream.output.write(detail + "\n") }
      }
    }

    // Location.
    switch options.location {
    case .off, .simulated:
      line(.ok, "location", "off")
    case .manual(let location):
      line(.ok, "location", "fixed at \(location.coordinate)")
    case .gpsd(let endpoint):
      let source = GPSDLocationSource(endpoint: endpoint, clock: ContinuousClock())
      do {
        let tag = try await source.locate(within: .seconds(3))
        line(.ok, "gpsd", "\(endpoint): fix at \(tag.name)")
      } catch let error as GPSDError {
        line(.warning, "gpsd", "\(CommandAdvice.advise(error))")
      } catch {
        line(.warning, "gpsd", "\(endpoint) is running but gave no fix in 3 s: \(error)")
      }
    }

    // The people in the picture: the face model, read as a run would read it.
    let faces = await ProgramSetup.faceModelLine(options)
    line(faces.mark, faces.subject, faces.text)

    // Printers: CUPS's destinations, their state and paper.
    for found in await PrintRunner.doctorLines(options) {
      line(found.mark, found.subject, found.text)
      for detail in found.details { StandardStream.output.write(detail + "\n") }
    }

    // Output folder.
    let store = ProgramSetup.store(options)
    do {
      try store.checkFolder()
      line(.ok, "output folder", "\(store.folder.path) (writable)")
    } catch {
      line(.problem, "output folder", "\(CommandAdvice.advise(error))")
    }

    // System libraries.
    for check in SystemLibraries.check() {
      line(
        check.works ? .ok : .problem, check.name,
        check.works
          ? check.detail
          : "\(check.detail): sudo apt-get install libturbojpeg0 libexif12 libpng16-16")
    }
    StandardStream.output.write(
      problems == 0
        ? "\nready to take photos\n" : "\n\(problems) problem(s): fix the lines marked ✗\n")
    return problems == 0 ? ExitCode.success.rawValue : ExitCode.failure.rawValue
  }

}
