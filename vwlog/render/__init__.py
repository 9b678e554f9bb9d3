"""The output vocabulary: one way to write each concept in each format.

* `vwlog.render.json` - one JSON shape per concept and one `dumps`;
* `vwlog.render.text` - terminal text: `plural`/`counted`, the validation summary line, one
  table renderer, and `term`/`visible`, which make control and bidi characters visible;
* `vwlog.render.markdown` - Markdown documents, everything a log carries escaped;
* `vwlog.render.html` - HTML pages from Jinja2 templates (autoescaped, one base layout);
* `vwlog.render.statspage` - the statistics report in every format;
* `vwlog.render.rules` - rule titles and texts without the digest's source tags.
"""

__all__ = []
