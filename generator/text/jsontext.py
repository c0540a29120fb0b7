"""JSON text not made ASCII: compact, as ``json.dumps(value, ensure_ascii=False, separators=(",", ":"))`` writes it,
and spaced, as ``json.dumps(value, ensure_ascii=False)`` does."""

from __future__ import annotations

import json
from typing import Any

import orjson


def compact_text(value: Any) -> str:
    """``value`` (strings, integers, booleans, None, and lists, tuples and dicts of them) as compact JSON, not
    made ASCII: by orjson (in C, several times faster; the same bytes for these values, its escapes ``json``'s),
    and by ``json`` what orjson refuses (a lone surrogate, an integer past 64 bits, a key that is not a string).
    Written for every paper (its page's JSON-LD, its own CSL-JSON: issue 43)."""
    try:
        return orjson.dumps(value).decode()
    except orjson.JSONEncodeError:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


# json.dumps(value, ensure_ascii=False), its encoder made once (json.dumps makes one a call it is given options).
spaced_text = json.JSONEncoder(ensure_ascii=False).encode
