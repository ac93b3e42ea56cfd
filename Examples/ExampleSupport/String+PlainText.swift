extension String {
  /// This text with HTML tags removed and the common entities decoded, for showing user-written
  /// descriptions (500px descriptions often carry `<a href=…>` links) as plain text.
  ///
  /// One pass over the text: it runs for every row of a list, so it avoids Foundation's
  /// repeated `replacingOccurrences` (which made it the slowest step of building a page).
  ///
  /// - Parameter singleLine: Collapse every run of whitespace, newlines included, into one
  ///   space. Otherwise keep line breaks and trim each line.
  /// - Returns: The plain text, trimmed.
  public func plainText(singleLine: Bool) -> String {
    var output = String.UnicodeScalarView()
    var pendingSpace = false  // whitespace seen since the last kept character
    var pendingNewlines = 0  // line breaks seen since the last kept character (multi-line)
    var insideTag = false
    let scalars = Array(unicodeScalars)
    var index = 0

    func emit(_ scalar: Unicode.Scalar) {
      if !output.isEmpty {
        if pendingNewlines > 0 {
          for _ in 0..<pendingNewlines { output.append("\n") }
        } else if pendingSpace {
          output.append(" ")
        }
      }
      pendingSpace = false
      pendingNewlines = 0
      output.append(scalar)
    }

    while index < scalars.count {
      let scalar = scalars[index]
      index += 1
      if insideTag {
        if scalar == ">" { insideTag = false }
        continue
      }
      switch scalar {
      case "<":
        insideTag = true
      case "&":
        if let (decoded, length) = Self.entity(in: scalars, at: index) {
          index += length
          if decoded == " " { pendingSpace = true } else { emit(decoded) }
        } else {
          emit(scalar)
        }
      case "\n" where !singleLine:
        pendingNewlines += 1
        pendingSpace = false
      default:
        if scalar.properties.isWhitespace {
          pendingSpace = true
        } else {
          emit(scalar)
        }
      }
    }
    return String(output)
  }

  /// The entity starting after an `&` at `start` (`amp;`, `lt;`, `gt;`, `quot;`, `#39;`,
  /// `nbsp;`), and how many scalars it spans.
  private static func entity(
    in scalars: [Unicode.Scalar], at start: Int
  ) -> (Unicode.Scalar, Int)? {
    var name = ""
    var index = start
    while index < scalars.count, index - start < 6 {
      let scalar = scalars[index]
      index += 1
      if scalar == ";" {
        switch name {
        case "amp": return ("&", index - start)
        case "lt": return ("<", index - start)
        case "gt": return (">", index - start)
        case "quot": return ("\"", index - start)
        case "#39", "apos": return ("'", index - start)
        case "nbsp": return (" ", index - start)
        default: return nil
        }
      }
      name.unicodeScalars.append(scalar)
    }
    return nil
  }
}
