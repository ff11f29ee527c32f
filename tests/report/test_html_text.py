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
