/// What a ``PhotoTimerSession`` reports: its runs' events, and what happens between runs.
public enum PhotoTimerSessionEvent: Hashable, Sendable {
  /// An event of one run; `runStart` is when that run's offsets count from, measured from
  /// the session's start (so `runStart + event.offset` is on the session's time axis).
  case run(PhotoTimerEvent, runStart: Duration)
  /// The run was cancelled by a restart and starts again; `count` restarts so far.
  case restarted(count: Int)
  /// A time-lapse shot begins: shot `number` (from 1) of `total`.
  case timeLapseShot(number: Int, of: Int)
  /// Time-lapse shots (numbered from 1) that were skipped because the shot before them
  /// ended after their moment.
  case timeLapseSkipped(ClosedRange<Int>)
}
