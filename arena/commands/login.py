"""``python -m arena login --server URL``: get an API token and keep it for the other commands.

Asks for the username and password (``--password-stdin`` reads the password from stdin, for
scripts, and then needs ``--username``: stdin is the password's), exchanges them for the
account's token (``POST /api/v1/auth/token/``), checks it
and stores it in the user's config folder (``arena.config``). ``--token KEY`` stores a token
taken from the site's account page instead.
"""

from __future__ import annotations

import argparse
import getpass
import sys

from .. import config
from ..client import ApiClient, normalise_server
from ..errors import CliError


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("login", help="log in to a server and keep its API token")
    parser.add_argument("--server", required=True, metavar="URL",
                        help="the Isle Arena server, e.g. http://localhost:8000")
    parser.add_argument("--username", default=None,
                        help="your username (asked if missing; needed with --password-stdin)")
    parser.add_argument("--password-stdin", action="store_true",
                        help="read the password from the first line of stdin")
    parser.add_argument("--token", default=None, metavar="KEY",
                        help="store this API token (from your account page) instead")
    parser.set_defaults(func=run)  # fmt: skip


def run(args: argparse.Namespace) -> int:
    server = normalise_server(args.server)
    token = args.token
    if not token:
        if args.password_stdin and not args.username:
            # stdin holds the password: asking the username there would read it as the name
            raise CliError("--password-stdin needs --username NAME (stdin holds the password)")
        username = args.username or input("username: ").strip()
        if args.password_stdin:
            password = sys.stdin.readline().rstrip("\r\n")
        else:
            password = getpass.getpass("password: ")
        if not username or not password:
            raise CliError("a username and a password are needed")
        answer = ApiClient(server).post(
            "auth/token/", {"username": username, "password": password}
        )
        token = answer.get("token") if isinstance(answer, dict) else None
        if not token:
            raise CliError(f"{server} answered without a token")
    me = ApiClient(server, token).get("accounts/me/")
    path = config.save(config.Credentials(server=server, token=token, username=me["username"]))
    print(f"logged in to {server} as {me['username']} (token kept in {path})")
    return 0
