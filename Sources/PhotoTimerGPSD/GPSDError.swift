/// What went wrong talking to gpsd, with what to do.
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
  case system(call: String, errno: Int32, message: String)

  /// What failed and what to do.
  public var description: String {
    switch self {
    case .notRunning(let endpoint):
      "gpsd not running on \(endpoint); start it (systemctl start gpsd) or pass --gpsd HOST:PORT"
    case .unknownHost(let endpoint, let reason):
      "cannot resolve the gpsd host \(endpoint.host): \(reason); check --gpsd"
    case .connectTimedOut(let endpoint):
      "gpsd at \(endpoint) did not answer in time; check the host and any firewall"
    case .closed(let endpoint):
      "gpsd at \(endpoint) closed the connection; is it still running?"
    case .lineTooLong(let endpoint, let limit):
      "gpsd at \(endpoint) sent a line over \(limit / 1024) KiB; is that really gpsd?"
    case .system(let call, let errno, let message):
      "\(call) failed: \(message) (errno \(errno))"
    }
  }
}
