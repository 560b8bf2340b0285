import Foundation
import PhotoTimer
import PhotoTimerConcurrency
import PhotoTimerFaces
import PhotoTimerImaging
import PhotoTimerJPEG

/// `phototimer-bench --people-eval DIR`: the people step on a folder of annotated photos, each
/// followed as a still stream for three seconds exactly as a count follows it, beside dlib's
/// detector run plainly on the photo at 2×.
///
/// `DIR/annotations.json` lists the photos and their faces:
///
/// ```json
/// {"images": [{"file": "group.jpg",
///              "faces": [{"box": [x, y, width, height], "eyes": "open", "facing": "camera"}]}]}
/// ```
///
/// `eyes` (`open`, `shut`) and `facing` (`camera`, `away`) may be left out where not known.
extension Benchmarks {
  struct Annotations: Decodable {
    struct Image: Decodable {
      var file: String
      var faces: [Annotated]
    }
    struct Annotated: Decodable {
      var box: [Double]
      var eyes: String?
      var facing: String?
      var pixelBox: PixelBox { PixelBox(x: box[0], y: box[1], width: box[2], height: box[3]) }
    }
    var images: [Image]
  }

  /// What one method found in one photo, against its annotation.
  struct Score {
    var annotated = 0
    var found = 0
    var matched = 0
    var eyesRight = 0
    var eyesWrong = 0
    var facingRight = 0
    var facingWrong = 0
    var falseFound: Int { found - matched }

    static func + (a: Score, b: Score) -> Score {
      Score(
        annotated: a.annotated + b.annotated, found: a.found + b.found,
        matched: a.matched + b.matched, eyesRight: a.eyesRight + b.eyesRight,
        eyesWrong: a.eyesWrong + b.eyesWrong, facingRight: a.facingRight + b.facingRight,
        facingWrong: a.facingWrong + b.facingWrong)
    }
  }

  static func peopleEval(_ folder: String) async {
    let url = URL(fileURLWithPath: folder)
    guard
      let data = try? Data(contentsOf: url.appendingPathComponent("annotations.json")),
      let annotations = try? JSONDecoder().decode(Annotations.self, from: data)
    else {
      print("people-eval: no readable \(folder)/annotations.json (see --help)")
      exit(2)
    }
    guard let finder = try? DlibFaceFinder.load() else {
      print("people-eval: the face model did not load (apt-get install libdlib-data)")
      exit(1)
    }
    let search = FaceSearch(finder: finder)
    print("people-eval: \(annotations.images.count) photos in \(folder); ours = the people step")
    print("following each photo as a still stream for 3 s; dlib 2× = its detector on the photo")
    print("at twice its size. matched: IoU ≥ 0.3. said: the step's summaries after its first count")
    print("(1 = steady). eyes/facing: judged right of those annotated.\n")
    let header = [
      "photo", "size", "faces", "ours found", "matched", "false", "said", "eyes ok", "facing ok",
      "dlib 2× found", "matched", "false",
    ]
    print(header.joined(separator: " | "))
    var ours = Score()
    var plain = Score()
    var unsteady = 0
    for image in annotations.images {
      let path = url.appendingPathComponent(image.file).path
      guard let bytes = try? [UInt8](Data(contentsOf: URL(fileURLWithPath: path))),
        let frame = try? JPEGCodec.decode(bytes, path: path)
      else {
        print("\(image.file) | could not be read")
        continue
      }
      let truth = image.faces
      let (people, summaries) = await followStill(frame, search: search)
      let said = summaries.count
      var score = Self.score(people.map(\.box), against: truth)
      for (person, annotated) in Self.pairs(people.map(\.box), truth) {
        let person = people[person]
        if let eyes = truth[annotated].eyes {
          if person.eyesClosed == (eyes == "shut") {
            score.eyesRight += 1
          } else {
            score.eyesWrong += 1
          }
        }
        if let facing = truth[annotated].facing {
          if person.looksAway == (facing == "away") {
            score.facingRight += 1
          } else {
            score.facingWrong += 1
          }
        }
      }
      let dlib =
        ((try? finder.faces(in: GreyImage(frame, scale: 2))) ?? []).map { $0.mapped(scale: 0.5) }
      if CommandLine.arguments.contains("--draft") {
        // NB: a starting point for annotating by hand: dlib's 2× boxes as annotation lines.
        for box in dlib {
          print(
            "  {\"box\": [\(Int(box.x)), \(Int(box.y)), \(Int(box.width)), \(Int(box.height))]},")
        }
      }
      let baseline = Self.score(dlib, against: truth)
      ours = ours + score
      plain = plain + baseline
      if said > 1 { unsteady += 1 }
      let cells: [String] = [
        image.file, "\(frame.width)×\(frame.height)", "\(truth.count)", "\(score.found)",
        "\(score.matched)", "\(score.falseFound)", "\(said)",
        "\(score.eyesRight)/\(score.eyesRight + score.eyesWrong)",
        "\(score.facingRight)/\(score.facingRight + score.facingWrong)", "\(baseline.found)",
        "\(baseline.matched)", "\(baseline.falseFound)",
      ]
      print(cells.joined(separator: " | "))
      if CommandLine.arguments.contains("--verbose") {
        for person in people {
          let facing = person.facing.map { "turn \(fixed($0.turn, 2)) drop \(fixed($0.drop, 2))" }
          let annotated = Self.pairs([person.box], truth).first.map { truth[$0.1].facing ?? "?" }
          let gaze = (try? search.face(in: person.box, of: frame)).flatMap {
            Self.irisAcross($0.landmarks, in: frame)
          }
          print(
            "  \(person.box): \(facing ?? "no landmarks"), eyes"
              + " \(person.baseline.openAspectRatio.map { fixed($0, 2) } ?? "?")"
              + ", iris across \(gaze.map { "\(fixed($0.0, 2)) \(fixed($0.1, 2))" } ?? "?")"
              + " (\(annotated ?? "not annotated"))")
        }
        // NB: what the landmarks would say of a face only dlib's plain search found.
        for box in dlib where !people.contains(where: { $0.box.overlap(with: box) >= 0.3 }) {
          let facing = (try? search.face(in: box, of: frame))?.facing
          print(
            "  \(box) (dlib 2× only): "
              + (facing.map { "turn \(fixed($0.turn, 2)) drop \(fixed($0.drop, 2))" }
                ?? "no landmarks"))
        }
      }
      if CommandLine.arguments.contains("--trace") {
        var tracker = PeopleTracker()
        for look in 0..<15 {
          let time = PeopleWatcher.lookEvery * look
          let seen =
            (try? tracker.look(
              at: frame, search: search, everywhere: look % 10 == 0, time: time)) ?? []
          print(
            "  look \(look): "
              + seen.map { sighting in
                let closed = tracker.tracks.first { $0.id == sighting.person }?.eyesClosed
                return "\(sighting.person):\(sighting.box)"
                  + " \(fixed(sighting.face.eyes?.aspectRatio ?? 0, 3))"
                  + (closed == true ? "*" : "")
              }.joined(separator: " "))
        }
      }
      if said > 1 { print("  said: " + summaries.map(\.description).joined(separator: " → ")) }
    }
    let percent = { (part: Int, whole: Int) in
      whole == 0 ? "—" : "\(fixed(100 * Double(part) / Double(whole), 1)) %"
    }
    print(
      "\nours: recall \(percent(ours.matched, ours.annotated)) (\(ours.matched) of \(ours.annotated)),"
        + " precision \(percent(ours.matched, ours.found)); eyes right \(ours.eyesRight) of"
        + " \(ours.eyesRight + ours.eyesWrong); facing right \(ours.facingRight) of"
        + " \(ours.facingRight + ours.facingWrong); photos whose summary changed after its first"
        + " count: \(unsteady)")
    print(
      "dlib 2×: recall \(percent(plain.matched, plain.annotated)) (\(plain.matched) of"
        + " \(plain.annotated)), precision \(percent(plain.matched, plain.found))")
  }

  /// Where each eye's iris lies between its corners (0 at the corner on the picture's left,
  /// 1 at the other), from the darkness of the eye's columns between its lids: a probe of the
  /// gaze for the evaluation, not a measure the step uses.
  static func irisAcross(_ points: [FacePoint], in frame: Frame) -> (Double, Double)? {
    guard points.count == 68 else { return nil }
    func across(_ eye: ArraySlice<FacePoint>) -> Double? {
      let eye = Array(eye)
      let left = eye[0].x
      let right = eye[3].x
      let top = min(eye[1].y, eye[2].y)
      let bottom = max(eye[4].y, eye[5].y)
      guard right - left > 2, bottom - top > 0.5 else { return nil }
      let scale = 8.0
      let region = PixelBox(
        x: left, y: top, width: right - left, height: max(1, bottom - top))
      let image = GreyImage(frame, region: region, scale: scale)
      guard image.width > 4, image.height > 0 else { return nil }
      let columns = (0..<image.width).map { x in
        Double((0..<image.height).map { Int(image[x, $0]) }.reduce(0, +)) / Double(image.height)
      }
      guard let lightest = columns.max() else { return nil }
      let weights = columns.map { lightest - $0 }
      let total = weights.reduce(0, +)
      guard total > 0 else { return nil }
      let centre = zip(weights, columns.indices).map { $0 * Double($1) }.reduce(0, +) / total
      return (centre + 0.5) / Double(image.width)
    }
    guard let first = across(points[36...41]), let second = across(points[42...47]) else {
      return nil
    }
    return (first, second)
  }

  /// The people step on `frame` as a still stream: fifteen looks 200 ms apart through the
  /// watcher a count uses; the people followed at the end and how many summaries it said
  /// from its first count on.
  static func followStill(
    _ frame: Frame, search: FaceSearch
  ) async -> ([PeopleTracker.Person], [PeopleSummary]) {
    let watcher = PeopleWatcher(search: search, everywhereEvery: PeopleWatcher.duringCount)
    let frames = AsyncStream<Frame> { continuation in
      for look in 0..<15 {
        var copy = frame
        copy.timestamp = PeopleWatcher.lookEvery * look
        continuation.yield(copy)
      }
      continuation.finish()
    }
    let said = Locked<[PeopleSummary]>([])
    _ = try? await watcher.watch(frames) { summary in said.withLock { $0.append(summary) } }
    return (watcher.people, said.withLock { Array($0.drop { $0.count == 0 }) })
  }

  /// Found boxes against annotated faces.
  static func score(_ found: [PixelBox], against truth: [Annotations.Annotated]) -> Score {
    Score(annotated: truth.count, found: found.count, matched: pairs(found, truth).count)
  }

  /// Found boxes paired with annotated faces, best overlaps first, each at most once, IoU ≥ 0.3.
  static func pairs(
    _ found: [PixelBox], _ truth: [Annotations.Annotated]
  ) -> [(found: Int, truth: Int)] {
    let candidates = found.indices.flatMap { f in truth.indices.map { (f, $0) } }
      .map { (f: $0.0, t: $0.1, iou: found[$0.0].overlap(with: truth[$0.1].pixelBox)) }
      .filter { $0.iou >= 0.3 }
      .sorted { $0.iou > $1.iou }
    var usedFound = Set<Int>()
    var usedTruth = Set<Int>()
    var result: [(found: Int, truth: Int)] = []
    for candidate in candidates
    where !usedFound.contains(candidate.f) && !usedTruth.contains(candidate.t) {
      usedFound.insert(candidate.f)
      usedTruth.insert(candidate.t)
      result.append((candidate.f, candidate.t))
    }
    return result
  }
}
