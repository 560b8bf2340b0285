/// What a preparation step is waiting for, pushed by the step itself as it changes.
///
/// A step's work calls ``report(_:)`` whenever what it waits for changes: the engine is
/// listening while the step (or the camera's hand-over) runs, and publishes each change as a
/// ``PhotoTimerEvent/Kind/stepStatus(_:_:)`` event, which the state keeps in
/// ``PhotoTimerState/activity``. Nothing ever asks a step for its status, so no front end
/// polls: a checklist row changes when the step says so.
///
/// ```swift
/// let location = Preparation<LocationTag>(isRequired: false) {
///   StepStatus.report("no fix yet: no report from gpsd")
///   for try await fix in gpsd.fixes() {
///     guard fix.isGood else {
///       StepStatus.report("no fix yet: \(fix.satellites) satellites")
///       continue
///     }
///     return fix.tag
///   }
///   throw LocationUnavailable(reason: "gpsd closed the connection")
/// }
/// ```
///
/// The report reaches the step that called it through its task (a task-local value, which
/// child tasks inherit): a call from outside the step's task tree, or after the run, is
/// ignored. The last status an optional step reported is also why it is left out when the
/// shutter comes first.
public enum StepStatus {
  /// Where a step's reports go: set by the engine around each step's work.
  package struct Listener: Sendable {
    package let report: @Sendable (String?) -> Void

    package init(_ report: @escaping @Sendable (String?) -> Void) {
      self.report = report
    }
  }

  @TaskLocal package static var listener: Listener?

  /// Reports what the calling step is waiting for now, or `nil` when it waits for nothing it
  /// can name. Cheap and synchronous: call it at every change; a repeat of the last text
  /// publishes nothing.
  ///
  /// - Parameter text: A short phrase such as `"no fix yet: the receiver has no
  ///   satellites"`.
  public static func report(_ text: String?) {
    listener?.report(text)
  }
}
