"""Formats of other programs: the Brettspielwelt site's ``.tch`` logs (``bsw``: reading a
log; ``bsw_replay``: replaying it through the engine and comparing the logged scores).

The names exported here are the importer's public API (docs/bsw.md), which front ends
such as ``tichu replay`` use.
"""

from tichu_core.formats.bsw_replay import (
    Mismatch,
    RecordReplay,
    RoundReplay,
    iter_records,
    iter_replay_file,
    load_records,
    read_log_text,
    records_json,
    replay_file,
    replay_game,
    replay_record,
    replay_round,
    replay_rounds,
    replay_text,
    seat_label,
)

__all__ = [
    "Mismatch",
    "RecordReplay",
    "RoundReplay",
    "iter_records",
    "iter_replay_file",
    "load_records",
    "read_log_text",
    "records_json",
    "replay_file",
    "replay_game",
    "replay_record",
    "replay_round",
    "replay_rounds",
    "replay_text",
    "seat_label",
]
