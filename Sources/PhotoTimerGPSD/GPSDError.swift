import PhotoTimerPOSIX

/// What went wrong talking to gpsd, with the endpoint involved.
///
/// The messages speak of gpsd and the endpoint; an application adds its own advice (which
/// option names another gpsd).
public enum GPSDError: Error, Hashable, Sendable, CustomStringConvertible {
  /// Nothing listens at the endpoint.
  case notRunning(GPSDEndpoint)
  /// The host name did not resolve.
  case unknownHost(GPSDEndpoint, String)
  /// The connection did not complete in time.
  case connectTimedOut(GPSDEndpoint)
  /// gpsd closed the connection.
  case closed(GPSDEndpoint)
  /// gpsd sent a line longer than the limit.
  case lineTooLong(GPSDEndpoint, limit: Int)
  /// A system call failed.
  case system(SystemCallError)

  /// What failed, and where.
  public var description: String {
    switch self {
    case .notRunning(let endpoint):
      "gpsd not running on \(endpoint); start it (systemctl start gpsd)"
    case .unknownHost(let endpoint, let reason):
      "cannot resolve the gpsd host \(endpoint.host): \(reason)"
    case .connectTimedOut(let endpoint):
      "gpsd at \(endpoint) did not answer in time; check the host and any firewall"
    case .closed(let endpoint):
      "gpsd at \(endpoint) closed the connection; is it still running?"
    case .lineTooLong(let endpoint, let limit):
      "gpsd at \(endpoint) sent a line over \(limit / 1024) KiB; is that really gpsd?"
    case .system(let error):
      "talking to gpsd failed: \(error)"
    }
  }
}
