/// Which image addresses a page loads, for an address that comes from data (an API's photo
/// URL): an image on the web (`http`, `https`), a raster image inline (`data:image/png`,
/// `jpeg`, `gif`, `webp`), or a path under one of this server's own image routes. Anything
/// else is not loaded: a script URL is never an image, and a path of this server's pages
/// would open a session for every image load.
public enum WebImageSource {
  /// The path prefixes of the showcase's and most apps' own image routes.
  public static let defaultPathPrefixes = ["/images/"]

  /// Whether `source` may be an `<img>`'s `src`.
  ///
  /// - Parameters:
  ///   - source: The address.
  ///   - pathPrefixes: This server's own image routes.
  /// - Returns: Whether the page may load it.
  public static func isAllowed(_ source: String, pathPrefixes: [String] = defaultPathPrefixes)
    -> Bool
  {
    let lowercased = source.lowercased()
    if lowercased.hasPrefix("https://") || lowercased.hasPrefix("http://") {
      return !source.contains(where: \.isWhitespace)
    }
    for type in ["png", "jpeg", "gif", "webp"] where lowercased.hasPrefix("data:image/\(type);") {
      return true
    }
    // A path of this server's: under an image route, with no way back out of it.
    return pathPrefixes.contains { source.hasPrefix($0) }
      && !source.split(separator: "/").contains("..") && !source.contains("\\")
  }
}
