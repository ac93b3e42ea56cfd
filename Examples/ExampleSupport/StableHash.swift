/// FNV-1a over a text's UTF-8 bytes: the same 64 bits on every machine and every run (Swift's
/// `Hasher` is seeded per process). The bundled catalogs use it to derive ids and picture seeds
/// from names.
public enum StableHash {
  /// The 64-bit FNV-1a hash of `text`.
  ///
  /// - Parameter text: Any text.
  /// - Returns: The hash.
  public static func fnv1a(_ text: String) -> UInt64 {
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    for byte in text.utf8 {
      hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3
    }
    return hash
  }
}
