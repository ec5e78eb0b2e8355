"""Turn alerts' setup (issue 27, item 4; ``matches.push`` sends them): their settings, the server's VAPID
key, and what a browser's push subscription must be to be kept.

The key: with SQLite, ``vapid_private.pem`` beside the SQLite file (the data folder), made on the first
start (mode 0600); with PostgreSQL, in the database (``push_keys``), because every server that shares it,
on any machine, must sign with the same key: a browser's subscription is bound to the public key it
was given.
"""

from __future__ import annotations

import base64
import binascii
import ipaddress
import time
from typing import Any
from urllib.parse import urlsplit

import orjson
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from py_vapid import Vapid02, b64urlencode
from pydantic import BaseModel, Field

from engine.values import JsonDict
from matches.errors import MatchError
from matches.settings import bounded, part
from matches.store import Store

#: The longest subscription body read, in bytes (a real one is about 400: an endpoint and two keys).
MAX_BODY_BYTES = 4096
#: The longest endpoint URL accepted (the push services' are 150 to 500 characters).
MAX_ENDPOINT_CHARS = 1024


class BadSubscription(MatchError, code="bad_subscription", status=422):
    """The body is not a browser's push subscription this server will send to."""


class TooManySubscriptions(MatchError, code="too_many_subscriptions", status=409):
    """A seat holding as many push subscriptions as it may."""


class PushOff(MatchError, code="push_off", status=404):
    """Turn alerts are off on this server."""


class PushSettings(BaseModel):
    """Turn alerts' settings, handed down by whoever builds the server (``TABLEJUDGE_PUSH*``,
    ``matches.settings``)."""

    model_config = part("push_")

    enabled: bool = Field(True, validation_alias="push")
    """turn alerts; off: /v1/push/key answers 404 and the page hides its control"""
    subject: str = ""
    """how a push service reaches the operator (the VAPID sub claim: mailto: or https:); empty: the public URL's https
    origin, else mailto:tablejudge@localhost"""
    http_loopback: bool = False
    """accept http:// endpoints on loopback hosts (a local push service, as the tests run)"""
    per_seat: int = bounded(5, 1, 100)
    """subscriptions one seat may hold (its phone, laptop ...)"""
    queue: int = bounded(1000, 1, 1_000_000)
    """matches whose alerts may wait to be sent in one process; more are dropped and logged"""
    concurrency: int = bounded(8, 1, 1000)
    """sends in flight at once"""
    timeout: float = bounded(10.0, 0.1, 600.0, alias="push_timeout_s")
    """seconds a push service has to answer one send"""
    ttl: int = bounded(86_400, 0, 2_419_200, alias="push_ttl_s")
    """seconds a push service keeps a message for a phone that is off (the TTL header)"""
    slow_clock_s: float = bounded(600.0, 0.0, 7 * 24 * 3600.0)
    """a match without a clock, or with this many seconds a turn or more, is slow: its PDQ deals are announced"""


# --- the key -----------------------------------------------------------------------------------------------
def _new_pem() -> str:
    key = ec.generate_private_key(ec.SECP256R1())
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    return pem.decode()


def load_key(store: Store) -> Vapid02:
    """The server's VAPID key, as the store keeps it (``Store.push_key``: beside the SQLite file, in
    PostgreSQL's table); made on the first start."""
    return Vapid02.from_pem(store.push_key(_new_pem(), time.time()).encode())


def public_key(vapid: Vapid02) -> str:
    """The key a browser subscribes with (``applicationServerKey``): the uncompressed point, base64url."""
    point = vapid.public_key.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    return str(b64urlencode(point))


# --- subscriptions -------------------------------------------------------------------------------------------
def _b64url(text: Any, name: str, size: int) -> bytes:
    if not isinstance(text, str) or len(text) > 2 * size + 4:
        raise BadSubscription(f"keys.{name} must be base64url text of {size} bytes")
    try:
        raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        raise BadSubscription(f"keys.{name} must be base64url text of {size} bytes") from None
    if len(raw) != size:
        raise BadSubscription(f"keys.{name} must be {size} bytes, got {len(raw)}")
    return raw


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def check_endpoint(endpoint: Any, http_loopback: bool) -> str:
    """The endpoint, if this server will send to it: https (a push service) or, when the setting allows,
    http on a loopback host. An https endpoint that names a private, loopback or link-local address is
    refused: the server would otherwise POST wherever a client points it inside its own network.

    >>> check_endpoint("https://fcm.googleapis.com/fcm/send/abc", False)
    'https://fcm.googleapis.com/fcm/send/abc'
    >>> check_endpoint("http://127.0.0.1:9/push", False)
    Traceback (most recent call last):
    ...
    matches.push_setup.BadSubscription: endpoint must be an https URL (a browser's push service)
    >>> check_endpoint("https://10.0.0.1/push", False)
    Traceback (most recent call last):
    ...
    matches.push_setup.BadSubscription: endpoint cannot be a private, loopback or link-local address
    """
    if not isinstance(endpoint, str) or not endpoint or len(endpoint) > MAX_ENDPOINT_CHARS:
        raise BadSubscription(f"endpoint must be a URL of at most {MAX_ENDPOINT_CHARS} characters")
    try:
        parts = urlsplit(endpoint)
        host = (parts.hostname or "").lower()
        parts.port  # noqa: B018 (a port that is not a number raises here)
    except ValueError:
        raise BadSubscription("endpoint is not a URL") from None
    if not host or parts.username is not None or parts.fragment or any(ord(c) < 33 for c in endpoint):
        raise BadSubscription("endpoint must be a plain URL with a host, no credentials and no fragment")
    if parts.scheme == "http" and http_loopback and _loopback(host):
        return endpoint
    if parts.scheme != "https":
        raise BadSubscription("endpoint must be an https URL (a browser's push service)")
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        address = None
    if host == "localhost" or address is not None and not address.is_global:
        raise BadSubscription("endpoint cannot be a private, loopback or link-local address")
    return endpoint


def parse_subscription(data: Any, http_loopback: bool) -> tuple[str, str, str]:
    """(endpoint, p256dh, auth) of a browser's ``PushSubscription.toJSON()``, checked: the key a point on
    P-256, the auth secret 16 bytes."""
    if not isinstance(data, dict):
        raise BadSubscription(
            'the body is a push subscription: {"endpoint": ..., "keys": {"p256dh": ..., "auth": ...}}'
        )
    endpoint = check_endpoint(data.get("endpoint"), http_loopback)
    keys = data.get("keys")
    if not isinstance(keys, dict):
        raise BadSubscription('keys must be an object: {"p256dh": ..., "auth": ...}')
    point = _b64url(keys.get("p256dh"), "p256dh", 65)
    try:
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
    except ValueError:
        raise BadSubscription("keys.p256dh is not a P-256 public key") from None
    _b64url(keys.get("auth"), "auth", 16)
    return endpoint, keys["p256dh"], keys["auth"]


def subject_for(public_url: str, configured: str) -> str:
    """The VAPID ``sub`` claim: the setting, else the public URL's origin when it is https, else a
    mailto: at localhost (push services ask for a way to reach the operator; set TABLEJUDGE_PUSH_SUBJECT).

    >>> subject_for("https://table.example.org:8443/x", "")
    'https://table.example.org'
    >>> subject_for("http://127.0.0.1:8000", "")
    'mailto:tablejudge@localhost'
    """
    if configured:
        return configured
    parts = urlsplit(public_url)
    if parts.scheme == "https" and parts.hostname and "." in parts.hostname:
        return f"https://{parts.hostname}"
    return "mailto:tablejudge@localhost"


def subscription_body(raw: bytes) -> JsonDict:
    """A request body as JSON, bounded; BadSubscription for anything else."""
    if len(raw) > MAX_BODY_BYTES:
        raise BadSubscription(f"a subscription body is at most {MAX_BODY_BYTES} bytes")
    try:
        data = orjson.loads(raw) if raw else None
    except orjson.JSONDecodeError:
        raise BadSubscription("the body is not JSON") from None
    if not isinstance(data, dict):
        raise BadSubscription(
            'the body is a push subscription: {"endpoint": ..., "keys": {"p256dh": ..., "auth": ...}}'
        )
    return data
