"""The HTML page sets a `command` between backticks as code: the reader sees no backticks."""

from simkit.report.document import Document, Paragraph, to_html


def test_backticks_become_code_and_stay_escaped(tmp_path):
    doc = Document("t", [Paragraph("Try next: `simkit run <x>.toml --races 10` then `a&b`.")])
    page = to_html(doc, tmp_path)
    body = page.split("<body>", 1)[1]
    assert "<code>simkit run &lt;x&gt;.toml --races 10</code>" in body
    assert "<code>a&amp;b</code>" in body
    assert "`" not in body


def test_a_lone_backtick_is_text(tmp_path):
    page = to_html(Document("t", [Paragraph("it's `odd")]), tmp_path)
    assert "it&#x27;s `odd" in page and "<code>" not in page.split("<body>", 1)[1]


def test_markdown_keeps_a_plain_ampersand_and_escapes_what_could_be_markup():
    """A track override's ``&`` reads as itself in the Markdown source; ``<``, ``>``, an
    ``&`` that would start an entity, and a link's ``](`` stay text."""
    from simkit.report.document import to_markdown

    track = "s-bends?corner.1.safety=5&corner.2.safety=8"
    text = f"{track} <b>x</b> &amp; [a](javascript:x)"
    md = to_markdown(Document("t", [Paragraph(text)]))
    assert f"{track} &lt;b&gt;x&lt;/b&gt; &amp;amp; [a]\\(javascript:x)" in md
