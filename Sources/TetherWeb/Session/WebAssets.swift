/// The page's script and style sheet: small, hand-written, served by the app itself (no CDN).
public enum WebAssets {
  /// The client: applies patches, sends gestures, keeps the URL in step, reconnects. It is
  /// `Resources/tether.js`, built into the module; the keys it forwards are ``WebKey``'s
  /// cases, written into it here.
  public static let script: String = {
    let source = String(decoding: PackageResources.tether_js, as: UTF8.self)
    let keys = WebKey.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
    return source.replacing("/* WebKey.allCases */ []", with: "[\(keys)]")
  }()

  /// Plain, readable CSS: light and dark by `prefers-color-scheme`, usable at 360 px. It is
  /// `Resources/tether.css`, built into the module.
  public static let style = String(decoding: PackageResources.tether_css, as: UTF8.self)
}
