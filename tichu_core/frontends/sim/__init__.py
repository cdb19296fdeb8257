"""Bots playing many matches: one match as a record (``matches``), the runners that
spread them over workers or a Ray cluster (``runners``), the JSONL files they resume
from (``jsonl``), the summaries (``summary``), and the commands ``tichu simulate``
(``simulate``) and ``tichu compare`` (``compare``)."""
