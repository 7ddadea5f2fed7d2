"""This machine's addresses: the one phones on the local network reach, and every one it has."""

from __future__ import annotations

import ipaddress
import socket
import struct

SIOCGIFADDR = 0x8915  # Linux ioctl: an interface's IPv4 address
WILDCARDS = ("0.0.0.0", "", "::")  # addresses that listen on every interface


def interface_address(name: str) -> str | None:
    """The IPv4 address of one network interface, asked of the kernel (no packet is sent)."""
    try:
        import fcntl  # not on Windows, where the route probe in lan_address answers instead
    except ImportError:
        return None
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            packed = fcntl.ioctl(
                probe.fileno(), SIOCGIFADDR, struct.pack("256s", name[:15].encode())
            )
        except OSError:
            return None
    return socket.inet_ntoa(packed[20:24])


def routed_address() -> str | None:
    """The address the system would send from to a LAN peer (a UDP connect sends no packet)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: never answered, only routed
        except OSError:
            return None
        address: str = probe.getsockname()[0]
    return None if address.startswith(("127.", "0.")) else address


def interface_addresses() -> list[str]:
    """The IPv4 address of every network interface that has one."""
    names = socket.if_nameindex() if hasattr(socket, "if_nameindex") else []
    found = (interface_address(name) for _index, name in names)
    return [address for address in found if address]


def lan_address() -> str:
    """This machine's address on the local network, for phones at the table to reach."""
    for address in interface_addresses():
        if not address.startswith("127."):
            return address
    return routed_address() or "127.0.0.1"


def served_hosts(host: str) -> list[str]:
    """The host names a server listening on `host` is reached by (Host headers to answer).

    One address is itself; the wildcard is every address of the machine and its names
    (`laptop`, and `laptop.local` as phones find it over mDNS).
    """
    if host not in WILDCARDS:
        return [host]
    name = socket.gethostname()
    addresses = [*interface_addresses(), routed_address() or ""]
    return list(dict.fromkeys(a for a in [*addresses, name, f"{name}.local"] if a))


def listening_on(host: str) -> list[str]:
    """The addresses a server for `host` listens on: one network address with the loopback.

    `serve --lan` listens on the laptop's address on the network; its own browser still opens
    `localhost` (README "For a family"), which the loopback beside it answers.
    """
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return [host]  # a name, or a wildcard spelled "": listened on as given
    if address.is_loopback or address.is_unspecified:
        return [host]
    return [host, "::1" if address.version == 6 else "127.0.0.1"]
