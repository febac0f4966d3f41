"""The address phones use to reach this server, and the QR code that carries it.

Phones cannot reach ``localhost``: :func:`base_url` gives ``PUBLIC_URL`` when it is set,
else the request's own address with a loopback host replaced by this machine's LAN
address (:func:`lan_address`, found locally from the interfaces; no packet is sent).
:func:`qr_svg` draws any text as a QR code in SVG.
"""

from __future__ import annotations

import io
import ipaddress
import socket
import struct
import time
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import qrcode
import qrcode.image.svg
from flask import current_app


def qr_svg(text: str) -> bytes:
    """``text`` as a QR code, an SVG image (crisp at any size, no raster library)."""
    code = qrcode.QRCode(border=2, error_correction=qrcode.constants.ERROR_CORRECT_M)
    code.add_data(text)
    code.make(fit=True)
    image = code.make_image(image_factory=qrcode.image.svg.SvgPathFillImage)
    out = io.BytesIO()
    image.save(out)
    return out.getvalue()


def base_url(host_url: str) -> str:
    public = current_app.config.get("PUBLIC_URL")
    if public:
        return public.rstrip("/")
    parts = urlsplit(host_url)
    host = parts.hostname or ""
    if is_loopback(host):
        lan = lan_address()
        if lan:
            netloc = lan if parts.port is None else f"{lan}:{parts.port}"
            parts = parts._replace(netloc=netloc)
    return urlunsplit(parts._replace(path="", query="", fragment="")).rstrip("/")


def is_loopback(host: str) -> bool:
    if host.lower() in ("localhost", "localhost.localdomain") or host.lower().endswith(
        ".localhost"
    ):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


_LAN_CACHE: dict[str, Any] = {"at": 0.0, "value": None}
_VIRTUAL = ("docker", "br-", "veth", "virbr", "lxc", "tun", "tap", "wg", "zt", "cni", "flannel")


def lan_address() -> str | None:
    """This machine's private IPv4 address on a real interface, found locally only
    (interface ioctls; no packet is sent). Cached for a minute."""
    now = time.monotonic()
    if now - _LAN_CACHE["at"] > 60:
        _LAN_CACHE["value"] = pick_lan(interface_addresses())
        _LAN_CACHE["at"] = now
    return _LAN_CACHE["value"]


def interface_addresses() -> list[tuple[str, str]]:
    """(interface, IPv4 address) pairs of this machine, read without network traffic."""
    pairs: list[tuple[str, str]] = []
    try:
        import fcntl

        names = [name for _, name in socket.if_nameindex()]
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
            for name in names:
                request = struct.pack("256s", name.encode()[:15])
                try:
                    answer = fcntl.ioctl(sock.fileno(), 0x8915, request)  # SIOCGIFADDR
                except OSError:
                    continue  # no IPv4 address on this interface
                pairs.append((name, socket.inet_ntoa(answer[20:24])))
    except (ImportError, OSError, AttributeError):
        # Not Linux: the addresses the system resolver already knows for this host name.
        try:
            infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
        except OSError:
            infos = []
        pairs = [("", info[4][0]) for info in infos]
    return pairs


def pick_lan(pairs: list[tuple[str, str]]) -> str | None:
    """The best private, non-loopback, non-link-local IPv4 address: real interfaces first,
    then 192.168/16, 10/8, 172.16/12."""
    best: list[tuple[int, int, str]] = []
    for name, address in pairs:
        try:
            ip = ipaddress.IPv4Address(address)
        except ValueError:
            continue
        if not ip.is_private or ip.is_loopback or ip.is_link_local or ip.is_unspecified:
            continue
        virtual = int(name.startswith(_VIRTUAL))
        if ip in ipaddress.IPv4Network("192.168.0.0/16"):
            rank = 0
        elif ip in ipaddress.IPv4Network("10.0.0.0/8"):
            rank = 1
        elif ip in ipaddress.IPv4Network("172.16.0.0/12"):
            rank = 2
        else:
            rank = 3
        best.append((virtual, rank, address))
    return min(best)[2] if best else None


def unreachable_reason(join_url: str, environ: dict[str, Any]) -> str | None:
    """Why phones cannot reach the join address, when that can be told honestly:

    * the join address itself is a loopback one (no ``PUBLIC_URL``, and no LAN address was
      found to put in place of ``localhost``);
    * or no ``PUBLIC_URL`` is set and Werkzeug's development server (``flask run``), whose
      ``SERVER_NAME`` is the address it is bound to, listens on a loopback address only: the
      LAN address in the QR code then leads nowhere.

    Other servers (gunicorn, a proxy) put the Host header in ``SERVER_NAME``, which says
    nothing about where they listen, so they are not judged. None when nothing is wrong.
    """
    if is_loopback(urlsplit(join_url).hostname or ""):
        return "address"
    if current_app.config.get("PUBLIC_URL"):
        return None
    software = str(environ.get("SERVER_SOFTWARE", ""))
    if software.startswith("Werkzeug") and is_loopback(str(environ.get("SERVER_NAME", ""))):
        return "bound"
    return None
