// The element functions of ``MarkupBuilder``: one per HTML element an app writes, each with
// typed attributes and content. Fields are the library's controls (`textField`, `checkbox`).

/// An element the functions below have no name for: `element("main") { … }`.
@MainActor
public func element<Action>(
  _ tag: String, _ attributes: Attribute...,
  @MarkupBuilder<Action> content: () -> Markup<Action>
) -> Markup<Action> {
  Markup.element(tag, attributes, content())
}

/// An empty element the functions below have no name for.
@MainActor
public func element<Action>(_ tag: String, _ attributes: Attribute...) -> Markup<Action> {
  Markup.element(tag, attributes, .empty)
}

/// `<div>`: A generic container.
@MainActor
public func div<Action>(
  _ attributes: Attribute..., @MarkupBuilder<Action> content: () -> Markup<Action>
) -> Markup<Action> {
  Markup.element("div", attributes, content())
}

/// An empty `<div>`.
@MainActor
public func div<Action>(_ attributes: Attribute...) -> Markup<Action> {
  Markup.element("div", attributes, .empty)
}

/// `<span>`: Inline text.
@MainActor
public func span<Action>(
  _ attributes: Attribute..., @MarkupBuilder<Action> content: () -> Markup<Action>
) -> Markup<Action> {
  Markup.element("span", attributes, content())
}

/// An empty `<span>`.
@MainActor
public func span<Action>(_ attributes: Attribute...) -> Markup<Action> {
  Markup.element("span", attributes, .empty)
}

/// `<p>`: A paragraph.
@MainActor
public func p<Action>(
  _ attributes: Attribute..., @MarkupBuilder<Action> content: () -> Markup<Action>
) -> Markup<Action> {
  Markup.element("p", attributes, content())
}

/// An empty `<p>`.
@MainActor
public func p<Action>(_ attributes: Attribute...) -> Markup<Action> {
  Markup.element("p", attributes, .empty)
}

/// `<h1>`: A heading.
@MainActor
public func h1<Action>(
  _ attributes: Attribute..., @MarkupBuilder<Action> content: () -> Markup<Action>
) -> Markup<Action> {
  Markup.element("h1", attributes, content())
}

/// An empty `<h1>`.
@MainActor
public func h1<Action>(_ attributes: Attribute...) -> Markup<Action> {
  Markup.element("h1", attributes, .empty)
}

/// `<h2>`: A heading.
@MainActor
public func h2<Action>(
  _ attributes: Attribute..., @MarkupBuilder<Action> content: () -> Markup<Action>
) -> Markup<Action> {
  Markup.element("h2", attributes, content())
}

/// An empty `<h2>`.
@MainActor
public func h2<Action>(_ attributes: Attribute...) -> Markup<Action> {
  Markup.element("h2", attributes, .empty)
}

/// `<h3>`: A heading.
@MainActor
public func h3<Action>(
  _ attributes: Attribute..., @MarkupBuilder<Action> content: () -> Markup<Action>
) -> Markup<Action> {
  Markup.element("h3", attributes, content())
}

/// An empty `<h3>`.
@MainActor
public func h3<Action>(_ attributes: Attribute...) -> Markup<Action> {
  Markup.element("h3", attributes, .empty)
}

/// `<h4>`: A heading.
@MainActor
public func h4<Action>(
  _ attributes: Attribute..., @MarkupBuilder<Action> content: () -> Markup<Action>
) -> Markup<Action> {
  Markup.element("h4", attributes, content())
}

/// An empty `<h4>`.
@MainActor
public func h4<Action>(_ attributes: Attribute...) -> Markup<Action> {
  Markup.element("h4", attributes, .empty)
}

/// `<section>`: A section.
@MainActor
public func section<Action>(
  _ attributes: Attribute..., @MarkupBuilder<Action> content: () -> Markup<Action>
) -> Markup<Action> {
  Markup.element("section", attributes, content())
}

/// An empty `<section>`.
@MainActor
public func section<Action>(_ attributes: Attribute...) -> Markup<Action> {
  Markup.element("section", attributes, .empty)
}

/// `<header>`: A header.
@MainActor
public func header<Action>(
  _ attributes: Attribute..., @MarkupBuilder<Action> content: () -> Markup<Action>
) -> Markup<Action> {
  Markup.element("header", attributes, content())
}

/// An empty `<header>`.
@MainActor
public func header<Action>(_ attributes: Attribute...) -> Markup<Action> {
  Markup.element("header", attributes, .empty)
}

/// `<footer>`: A footer.
@MainActor
public func footer<Action>(
  _ attributes: Attribute..., @MarkupBuilder<Action> content: () -> Markup<Action>
) -> Markup<Action> {
  Markup.element("footer", attributes, content())
}

/// An empty `<footer>`.
@MainActor
public func footer<Action>(_ attributes: Attribute...) -> Markup<Action> {
  Markup.element("footer", attributes, .empty)
}

/// `<nav>`: Navigation links.
@MainActor
public func nav<Action>(
  _ attributes: Attribute..., @MarkupBuilder<Action> content: () -> Markup<Action>
) -> Markup<Action> {
  Markup.element("nav", attributes, content())
}

/// An empty `<nav>`.
@MainActor
public func nav<Action>(_ attributes: Attribute...) -> Markup<Action> {
  Markup.element("nav", attributes, .empty)
}

/// `<article>`: A self-contained article.
@MainActor
public func article<Action>(
  _ attributes: Attribute..., @MarkupBuilder<Action> content: () -> Markup<Action>
) -> Markup<Action> {
  Markup.element("article", attributes, content())
}

/// An empty `<article>`.
@MainActor
public func article<Action>(_ attributes: Attribute...) -> Markup<Action> {
  Markup.element("article", attributes, .empty)
}

/// `<aside>`: Content aside from the main flow.
@MainActor
public func aside<Action>(
  _ attributes: Attribute..., @MarkupBuilder<Action> content: () -> Markup<Action>
) -> Markup<Action> {
  Markup.element("aside", attributes, content())
}

/// An empty `<aside>`.
@MainActor
public func aside<Action>(_ attributes: Attribute...) -> Markup<Action> {
  Markup.element("aside", attributes, .empty)
}

/// `<ul>`: An unordered list.
@MainActor
public func ul<Action>(
  _ attributes: Attribute..., @MarkupBuilder<Action> content: () -> Markup<Action>
) -> Markup<Action> {
  Markup.element("ul", attributes, content())
}

/// An empty `<ul>`.
@MainActor
public func ul<Action>(_ attributes: Attribute...) -> Markup<Action> {
  Markup.element("ul", attributes, .empty)
}

/// `<ol>`: An ordered list.
@MainActor
public func ol<Action>(
  _ attributes: Attribute..., @MarkupBuilder<Action> content: () -> Markup<Action>
) -> Markup<Action> {
  Markup.element("ol", attributes, content())
}

/// An empty `<ol>`.
@MainActor
public func ol<Action>(_ attributes: Attribute...) -> Markup<Action> {
  Markup.element("ol", attributes, .empty)
}

/// `<li>`: A list item.
@MainActor
public func li<Action>(
  _ attributes: Attribute..., @MarkupBuilder<Action> content: () -> Markup<Action>
) -> Markup<Action> {
  Markup.element("li", attributes, content())
}

/// An empty `<li>`.
@MainActor
public func li<Action>(_ attributes: Attribute...) -> Markup<Action> {
  Markup.element("li", attributes, .empty)
}

/// `<label>`: A label: wraps the field it names.
@MainActor
public func label<Action>(
  _ attributes: Attribute..., @MarkupBuilder<Action> content: () -> Markup<Action>
) -> Markup<Action> {
  Markup.element("label", attributes, content())
}

/// An empty `<label>`.
@MainActor
public func label<Action>(_ attributes: Attribute...) -> Markup<Action> {
  Markup.element("label", attributes, .empty)
}

/// `<strong>`: Strong importance.
@MainActor
public func strong<Action>(
  _ attributes: Attribute..., @MarkupBuilder<Action> content: () -> Markup<Action>
) -> Markup<Action> {
  Markup.element("strong", attributes, content())
}

/// An empty `<strong>`.
@MainActor
public func strong<Action>(_ attributes: Attribute...) -> Markup<Action> {
  Markup.element("strong", attributes, .empty)
}

/// `<em>`: Emphasis.
@MainActor
public func em<Action>(
  _ attributes: Attribute..., @MarkupBuilder<Action> content: () -> Markup<Action>
) -> Markup<Action> {
  Markup.element("em", attributes, content())
}

/// An empty `<em>`.
@MainActor
public func em<Action>(_ attributes: Attribute...) -> Markup<Action> {
  Markup.element("em", attributes, .empty)
}

/// `<small>`: Side comments, fine print.
@MainActor
public func small<Action>(
  _ attributes: Attribute..., @MarkupBuilder<Action> content: () -> Markup<Action>
) -> Markup<Action> {
  Markup.element("small", attributes, content())
}

/// An empty `<small>`.
@MainActor
public func small<Action>(_ attributes: Attribute...) -> Markup<Action> {
  Markup.element("small", attributes, .empty)
}

/// `<a>`: A link: give it `.href`; with ``Markup/onClick(_:)`` the session handles it.
@MainActor
public func a<Action>(
  _ attributes: Attribute..., @MarkupBuilder<Action> content: () -> Markup<Action>
) -> Markup<Action> {
  Markup.element("a", attributes, content())
}

/// An empty `<a>`.
@MainActor
public func a<Action>(_ attributes: Attribute...) -> Markup<Action> {
  Markup.element("a", attributes, .empty)
}

/// `<button>`: A button (`type="button"` unless given another).
@MainActor
public func button<Action>(
  _ attributes: Attribute..., @MarkupBuilder<Action> content: () -> Markup<Action>
) -> Markup<Action> {
  Markup.element("button", attributes, content())
}

/// An empty `<button>`.
@MainActor
public func button<Action>(_ attributes: Attribute...) -> Markup<Action> {
  Markup.element("button", attributes, .empty)
}

/// `<pre>`: Preformatted text.
@MainActor
public func pre<Action>(
  _ attributes: Attribute..., @MarkupBuilder<Action> content: () -> Markup<Action>
) -> Markup<Action> {
  Markup.element("pre", attributes, content())
}

/// An empty `<pre>`.
@MainActor
public func pre<Action>(_ attributes: Attribute...) -> Markup<Action> {
  Markup.element("pre", attributes, .empty)
}

/// `<code>`: Code.
@MainActor
public func code<Action>(
  _ attributes: Attribute..., @MarkupBuilder<Action> content: () -> Markup<Action>
) -> Markup<Action> {
  Markup.element("code", attributes, content())
}

/// An empty `<code>`.
@MainActor
public func code<Action>(_ attributes: Attribute...) -> Markup<Action> {
  Markup.element("code", attributes, .empty)
}

/// `<table>`: A table.
@MainActor
public func table<Action>(
  _ attributes: Attribute..., @MarkupBuilder<Action> content: () -> Markup<Action>
) -> Markup<Action> {
  Markup.element("table", attributes, content())
}

/// An empty `<table>`.
@MainActor
public func table<Action>(_ attributes: Attribute...) -> Markup<Action> {
  Markup.element("table", attributes, .empty)
}

/// `<thead>`: A table's head.
@MainActor
public func thead<Action>(
  _ attributes: Attribute..., @MarkupBuilder<Action> content: () -> Markup<Action>
) -> Markup<Action> {
  Markup.element("thead", attributes, content())
}

/// An empty `<thead>`.
@MainActor
public func thead<Action>(_ attributes: Attribute...) -> Markup<Action> {
  Markup.element("thead", attributes, .empty)
}

/// `<tbody>`: A table's body.
@MainActor
public func tbody<Action>(
  _ attributes: Attribute..., @MarkupBuilder<Action> content: () -> Markup<Action>
) -> Markup<Action> {
  Markup.element("tbody", attributes, content())
}

/// An empty `<tbody>`.
@MainActor
public func tbody<Action>(_ attributes: Attribute...) -> Markup<Action> {
  Markup.element("tbody", attributes, .empty)
}

/// `<tr>`: A table row.
@MainActor
public func tr<Action>(
  _ attributes: Attribute..., @MarkupBuilder<Action> content: () -> Markup<Action>
) -> Markup<Action> {
  Markup.element("tr", attributes, content())
}

/// An empty `<tr>`.
@MainActor
public func tr<Action>(_ attributes: Attribute...) -> Markup<Action> {
  Markup.element("tr", attributes, .empty)
}

/// `<th>`: A table header cell.
@MainActor
public func th<Action>(
  _ attributes: Attribute..., @MarkupBuilder<Action> content: () -> Markup<Action>
) -> Markup<Action> {
  Markup.element("th", attributes, content())
}

/// An empty `<th>`.
@MainActor
public func th<Action>(_ attributes: Attribute...) -> Markup<Action> {
  Markup.element("th", attributes, .empty)
}

/// `<td>`: A table cell.
@MainActor
public func td<Action>(
  _ attributes: Attribute..., @MarkupBuilder<Action> content: () -> Markup<Action>
) -> Markup<Action> {
  Markup.element("td", attributes, content())
}

/// An empty `<td>`.
@MainActor
public func td<Action>(_ attributes: Attribute...) -> Markup<Action> {
  Markup.element("td", attributes, .empty)
}

/// `<fieldset>`: A group of fields.
@MainActor
public func fieldset<Action>(
  _ attributes: Attribute..., @MarkupBuilder<Action> content: () -> Markup<Action>
) -> Markup<Action> {
  Markup.element("fieldset", attributes, content())
}

/// An empty `<fieldset>`.
@MainActor
public func fieldset<Action>(_ attributes: Attribute...) -> Markup<Action> {
  Markup.element("fieldset", attributes, .empty)
}

/// `<legend>`: A field group's caption.
@MainActor
public func legend<Action>(
  _ attributes: Attribute..., @MarkupBuilder<Action> content: () -> Markup<Action>
) -> Markup<Action> {
  Markup.element("legend", attributes, content())
}

/// An empty `<legend>`.
@MainActor
public func legend<Action>(_ attributes: Attribute...) -> Markup<Action> {
  Markup.element("legend", attributes, .empty)
}

/// `<dialog>`: A dialog.
@MainActor
public func dialog<Action>(
  _ attributes: Attribute..., @MarkupBuilder<Action> content: () -> Markup<Action>
) -> Markup<Action> {
  Markup.element("dialog", attributes, content())
}

/// An empty `<dialog>`.
@MainActor
public func dialog<Action>(_ attributes: Attribute...) -> Markup<Action> {
  Markup.element("dialog", attributes, .empty)
}

/// `<figure>`: A figure.
@MainActor
public func figure<Action>(
  _ attributes: Attribute..., @MarkupBuilder<Action> content: () -> Markup<Action>
) -> Markup<Action> {
  Markup.element("figure", attributes, content())
}

/// An empty `<figure>`.
@MainActor
public func figure<Action>(_ attributes: Attribute...) -> Markup<Action> {
  Markup.element("figure", attributes, .empty)
}

/// `<figcaption>`: A figure's caption.
@MainActor
public func figcaption<Action>(
  _ attributes: Attribute..., @MarkupBuilder<Action> content: () -> Markup<Action>
) -> Markup<Action> {
  Markup.element("figcaption", attributes, content())
}

/// An empty `<figcaption>`.
@MainActor
public func figcaption<Action>(_ attributes: Attribute...) -> Markup<Action> {
  Markup.element("figcaption", attributes, .empty)
}

/// `<time>`: A time.
@MainActor
public func time<Action>(
  _ attributes: Attribute..., @MarkupBuilder<Action> content: () -> Markup<Action>
) -> Markup<Action> {
  Markup.element("time", attributes, content())
}

/// An empty `<time>`.
@MainActor
public func time<Action>(_ attributes: Attribute...) -> Markup<Action> {
  Markup.element("time", attributes, .empty)
}

/// `<img>`: An image: give it `.src` and `.alt`.
@MainActor
public func img<Action>(_ attributes: Attribute...) -> Markup<Action> {
  Markup.element("img", attributes, .empty)
}

/// `<hr>`: A thematic break.
@MainActor
public func hr<Action>(_ attributes: Attribute...) -> Markup<Action> {
  Markup.element("hr", attributes, .empty)
}

/// `<br>`: A line break.
@MainActor
public func br<Action>(_ attributes: Attribute...) -> Markup<Action> {
  Markup.element("br", attributes, .empty)
}

extension Markup {
  static func element(_ tag: String, _ attributes: [Attribute], _ content: Markup) -> Markup {
    Markup(
      nodes: [
        .element(MarkupElement(tag: tag, attributes: attributes, children: content.nodes))
      ])
  }
}
