"""Bearer tokens, written once for both modes: Play mode's seats and host, and the phones
that join a score sheet. A token is ``secrets.token_urlsafe(32)``; only its SHA-256 is
stored, and a presented token is compared in constant time with every stored hash."""

from __future__ import annotations

import functools
import hashlib
import hmac
import secrets


def new_token() -> str:
    return secrets.token_urlsafe(32)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


@functools.lru_cache(maxsize=8192)
def holder_mark(token_hash: str) -> str:
    """A short mark of a stored token hash, put in a stream ticket (which travels in an
    address) to name the credential it was issued for without carrying that hash. Kept
    for the hashes seen lately: every event of a seat's stream checks it again."""
    return hashlib.sha256(b"stream-holder:" + token_hash.encode()).hexdigest()[:16]


def same_hash(presented: str, stored: str) -> bool:
    return hmac.compare_digest(presented.encode(), stored.encode())
