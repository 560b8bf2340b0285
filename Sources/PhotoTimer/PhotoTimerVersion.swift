/// The version of the PhotoTimer library and the `phototimer` command.
public enum PhotoTimerVersion {
  /// The version, for example `0.1.0`; written into photos as their Software tag.
  public static let current = "0.1.0"
}
