"""The address of the client a request came from, as the deployment's proxies report it.

Behind nginx (deploy/nginx.conf.template) every request reaches gunicorn from the proxy's
address, so REMOTE_ADDR names the proxy, and every client would share the login throttle's
counts. The proxy appends the address it saw to X-Forwarded-For; anything to the left of that
came from the client and may be forged. So the client is the right-most hop that is not one of
our own proxies (TRUSTED_PROXIES), read only when REMOTE_ADDR itself is one of them: a client
that reaches gunicorn directly cannot choose its address by sending the header.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from typing import TYPE_CHECKING

from django.conf import settings

if TYPE_CHECKING:  # settings import this module: it imports nothing else of Django's at load
    from django.http import HttpRequest

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def trusted_networks(values: Iterable[str]) -> tuple[Network, ...]:
    """TRUSTED_PROXIES entries (addresses or CIDR networks) parsed; ValueError names a bad one."""
    networks = []
    for value in values:
        try:
            networks.append(ipaddress.ip_network(value.strip(), strict=False))
        except ValueError:
            raise ValueError(f"TRUSTED_PROXIES: {value!r} is not an address or network") from None
    return tuple(networks)


def _parse(value: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    value = value.strip()
    if value.startswith("[") and "]" in value:  # [v6]:port
        value = value[1 : value.index("]")]
    elif value.count(":") == 1:  # v4:port
        value = value.split(":", 1)[0]
    try:
        return ipaddress.ip_address(value)
    except ValueError:
        return None


def _trusted(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    networks = settings.TRUSTED_PROXY_NETWORKS
    return any(address.version == net.version and address in net for net in networks)


def client_address(request: HttpRequest | None) -> str | None:
    """The client's address: REMOTE_ADDR, or, when that is a trusted proxy, the right-most
    X-Forwarded-For hop that is not (the left-most one when every hop is trusted). A hop that
    is not an address ends the walk at the last address that was."""
    if request is None:
        return None
    remote = request.META.get("REMOTE_ADDR") or None
    current = _parse(remote) if remote else None
    if current is None:
        return remote
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
    hops = [hop for hop in forwarded.split(",") if hop.strip()]
    while _trusted(current) and hops:
        previous = _parse(hops.pop())
        if previous is None:
            break
        current = previous
    return str(current)


def throttle_key(address: str | None) -> str | None:
    """What a throttle counts one client by: an IPv4 address; an IPv6 address's /64, the
    block one subscriber gets (counted by address, every request of one line could come
    from a fresh address)."""
    if not address:
        return None
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(parsed, ipaddress.IPv6Address):
        if parsed.ipv4_mapped is not None:  # ::ffff:a.b.c.d is the IPv4 client a.b.c.d
            return str(parsed.ipv4_mapped)
        return str(ipaddress.ip_network(f"{parsed}/64", strict=False))
    return str(parsed)


# A trusted network larger than this is almost surely a private range named by mistake.
WIDE_NETWORK_ADDRESSES = 256


def wide_trusted_networks(networks: Iterable[Network]) -> list[Network]:
    """The trusted networks wider than WIDE_NETWORK_ADDRESSES: every host in one of them
    could forge its clients' X-Forwarded-For (the `manage.py check` warning says so)."""
    return [net for net in networks if net.num_addresses > WIDE_NETWORK_ADDRESSES]
