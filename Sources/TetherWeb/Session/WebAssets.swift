import Foundation

/// The page's script and style sheet: small, hand-written, served by the app itself (no CDN).
///
/// A page carries both in its own HTML (``inlineScript(attributes:)`` and ``inlineStyle``), so a
/// browser that has never seen the app connects after one request, not three: nothing waits
/// for a second and third response before the socket opens. The content security policy allows the script
/// by its hash (TetherWebHummingbird's `WebAssets.scriptSourceHash`), never inline script in
/// general. They are also served at
/// `/tether.js` and `/tether.css` for pages of an app's own.
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

  /// The script as a page carries it: `<script` and the page's `attributes` (its session, secret
  /// and token as `data-` attributes, each written with a leading space), then the script.
  ///
  /// - Parameter attributes: The element's attributes.
  /// - Returns: The element.
  public static func inlineScript(attributes: String) -> String {
    "<script\(attributes)>\(script)</script>"
  }

  /// The style sheet as a page carries it: a `style` element.
  public static let inlineStyle = "<style>\(style)</style>"

  /// Whether `text` can be the content of a `style` or `script` element as it is: such an
  /// element ends at the first `</style` or `</script` (any case), whatever comes before.
  static func fitsRawTextElement(_ text: String) -> Bool {
    let lowered = text.lowercased()
    return !lowered.contains("</style") && !lowered.contains("</script")
  }
}
