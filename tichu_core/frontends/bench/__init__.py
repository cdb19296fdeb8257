"""``tichu bench``: the performance figures of docs/performance.md (``figures``)."""
