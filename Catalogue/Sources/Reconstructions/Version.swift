/// Which side of an upstream fix a reconstruction stands on.
public enum Version: String, Sendable, CaseIterable {
  /// The release that had the bug.
  case buggy
  /// The release that fixed it.
  case fixed
}
