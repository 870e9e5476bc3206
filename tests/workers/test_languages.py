"""Languages beyond Python: JavaScript on Node.js, C++ compiled once in the sandbox, and static
native executables. Bundle checks are pure; the rest runs real programs in the real sandbox."""

from __future__ import annotations

import io
import struct
import subprocess
import zipfile
from pathlib import Path

import pytest

from competition.faults import FaultKind
from workers.runner import MatchSpec, SeatSpec, run_match
from workers.sandbox import bundles
from workers.sandbox.build import BuildFailed, BuildLimits, build_bundle, cached_build
from workers.sandbox.bundles import (
    BundleError,
    address_space_mb,
    bot_command,
    needs_build,
    unpack_bundle,
    validate_bundle,
)
from workers.sandbox.elf import ElfError, check_static_x86_64

from .conftest import FAST
from .starters import EXAMPLES, zip_bundle

JS_PASS = b"""
const rl = require("node:readline").createInterface({ input: process.stdin });
rl.on("line", (line) => {
  const m = JSON.parse(line);
  if (m.type === "start") process.stdout.write('{"ready": true}\\n');
  else if (m.type === "decide") { HOG; process.stdout.write('{"index": 0}\\n'); }
});
"""
SYNTAX_ERROR = b"#include <cstdio>\nint main() { std::puts(\"hi\") return 0; }\n"


def js(hog: str = "") -> bytes:
    return JS_PASS.replace(b"HOG", hog.encode())


def zip_bytes(manifest: dict[str, str], files: dict[str, bytes], tmp: Path) -> bytes:
    return zip_bundle(tmp / "b.zip", manifest, files).read_bytes()


@pytest.fixture(scope="module")
def executables(tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    out = tmp_path_factory.mktemp("elf")
    (out / "main.c").write_text("int main(void) { return 0; }\n")
    found = {}
    for name, flags in (("static", ["-static"]), ("dynamic", [])):
        exe = out / name
        subprocess.run(["gcc", "-O2", *flags, "-o", str(exe), str(out / "main.c")], check=True)
        found[name] = exe.read_bytes()
    return found


# --- bundles -----------------------------------------------------------------------------------


def test_javascript_is_one_file_or_a_node_zip(tmp_path: Path) -> None:
    single = validate_bundle(js(), "bot.js")
    assert (single.language, single.kind, single.entrypoint) == ("node", "file", "bot.js")
    zipped = validate_bundle(
        zip_bytes({"entrypoint": "src/main.js", "language": "node"}, {"src/main.js": js()},
                  tmp_path), "bot.zip",
    )  # fmt: skip
    assert (zipped.language, zipped.entrypoint) == ("node", "src/main.js")
    with pytest.raises(BundleError, match="a node entrypoint ends with .js"):
        validate_bundle(
            zip_bytes({"entrypoint": "main.py", "language": "node"}, {"main.py": b"1"}, tmp_path),
            "bot.zip",
        )


def test_node_gets_a_heap_cap_and_room_for_reserved_address_space() -> None:
    info = validate_bundle(js(), "bot.js")
    command = bot_command(info, "/bot", memory_mb=400)
    assert "--max-old-space-size=300" in command and command[-1] == "/bot/bot.js"
    assert address_space_mb("node", 400) == 400 + 1024
    assert address_space_mb("python3", 400) == 400


def test_compiled_languages_and_binaries_are_zips_only() -> None:
    with pytest.raises(BundleError, match=r"one source file \(.cjs, .js, .mjs, .py\)"):
        validate_bundle(b"int main() {}", "bot.cpp")
    with pytest.raises(BundleError, match="one source file"):
        validate_bundle(b"\x7fELF", "bot")


def test_cpp_bundle_needs_a_build_and_cannot_run_as_it_is(tmp_path: Path) -> None:
    data = zip_bytes({"entrypoint": "main.cpp", "language": "cpp"}, {"main.cpp": b"x"}, tmp_path)
    info = validate_bundle(data, "bot.zip")
    assert needs_build(info)
    with pytest.raises(BundleError, match="must be built"):
        bot_command(info, "/bot")


def test_binary_bundle_must_be_a_static_x86_64_executable(
    tmp_path: Path, executables: dict[str, bytes]
) -> None:
    manifest = {"entrypoint": "bot", "language": "binary"}
    ok = validate_bundle(zip_bytes(manifest, {"bot": executables["static"]}, tmp_path), "b.zip")
    assert ok.language == "binary" and not needs_build(ok)
    refused = {
        "dynamically linked": executables["dynamic"],
        "not an ELF executable": b"#!/bin/sh\necho hi\n",
    }
    for reason, data in refused.items():
        with pytest.raises(BundleError, match=f"binary entrypoint 'bot': .*{reason}"):
            validate_bundle(zip_bytes(manifest, {"bot": data}, tmp_path), "b.zip")
    bundle = tmp_path / "ok.zip"
    bundle.write_bytes(zip_bytes(manifest, {"bot": executables["static"]}, tmp_path))
    info = unpack_bundle(bundle, dest=tmp_path / "out")
    assert bot_command(info, "/bot") == ["/bot/bot"]


def test_elf_header_checks(executables: dict[str, bytes]) -> None:
    static = executables["static"]
    check_static_x86_64(static)
    cases = {
        "not a 64-bit": static[:4] + b"\x01" + static[5:],  # ELFCLASS32
        "not x86-64": static[:18] + struct.pack("<H", 183) + static[20:],  # aarch64
        "not an executable": static[:16] + struct.pack("<H", 1) + static[18:],  # relocatable
        "not Linux": static[:7] + b"\x09" + static[8:],  # FreeBSD
        "cut short": static[:200],
    }
    for reason, data in cases.items():
        with pytest.raises(ElfError, match=reason):
            check_static_x86_64(data)


def test_the_language_table_says_what_each_language_is() -> None:
    table = bundles.languages()
    assert set(table) >= {"python3", "node", "cpp", "binary"}
    assert table["cpp"]["build"]["language"] == "binary"  # a build makes a binary bundle
    assert all(spec["description"] for spec in table.values())


# --- builds (the compiler in the sandbox) ------------------------------------------------------

def cpp_zip(tmp_path: Path, source: bytes, name: str = "main.cpp") -> bytes:
    return zip_bytes({"entrypoint": name, "language": "cpp", "name": "c"}, {name: source},
                     tmp_path)  # fmt: skip


@pytest.mark.slow
@pytest.mark.usefixtures("worker_guard")
def test_cpp_build_makes_a_binary_bundle_with_a_log(tmp_path: Path) -> None:
    kit = EXAMPLES / "cpp"
    data = zip_bytes(
        {"entrypoint": "random_bot.cpp", "language": "cpp", "name": "rnd", "version": "2"},
        {"random_bot.cpp": (kit / "random_bot.cpp").read_bytes(),
         "arena.hpp": (kit / "arena.hpp").read_bytes()},
        tmp_path,
    )  # fmt: skip
    result = build_bundle(data, "rnd.zip")
    assert result.ok and result.reason == "", result.log
    assert result.log.startswith("$ g++ -std=gnu++17 -O2 -pipe -static -I . -o bot random_bot.cpp")
    assert "built " in result.log
    assert result.bundle is not None and result.filename == f"{result.sha256[:16]}.zip"
    built = validate_bundle(result.bundle, result.filename)
    assert (built.language, built.entrypoint, built.name, built.version) == (
        "binary", "bot", "rnd", "2")  # fmt: skip
    assert built.sha256 == result.sha256
    with zipfile.ZipFile(io.BytesIO(result.bundle)) as archive:
        assert sorted(archive.namelist()) == ["bot", "bot.json"]


@pytest.mark.slow
@pytest.mark.usefixtures("worker_guard")
def test_cpp_syntax_error_fails_with_the_compilers_message(tmp_path: Path) -> None:
    result = build_bundle(cpp_zip(tmp_path, SYNTAX_ERROR), "bad.zip")
    assert not result.ok and result.bundle is None
    assert result.reason == "main.cpp:2:29: error: expected ';' before 'return'"
    assert "the compiler exited with status 1" in result.log
    with pytest.raises(BuildFailed, match="expected ';'") as failed:
        cached_build(cpp_zip(tmp_path, SYNTAX_ERROR), "bad.zip")
    assert "main.cpp:2" in failed.value.result.log


@pytest.mark.slow
@pytest.mark.usefixtures("worker_guard")
def test_cpp_build_has_a_time_limit_and_a_memory_limit(tmp_path: Path) -> None:
    spin = (b"constexpr long spin() { long x = 0; for (long i = 0; i < 200000; ++i)"
            b" for (long j = 0; j < 200000; ++j) x += i ^ j; return x; }\n"
            b"constexpr long value = spin();\nint main() { return value & 1; }\n")  # fmt: skip
    slow = build_bundle(cpp_zip(tmp_path, spin), "slow.zip", limits=BuildLimits(seconds=1.5))
    assert not slow.ok and slow.reason == "the build took longer than 1.5 s"
    assert slow.seconds >= 1.5  # stopped at its limit (and returned: killed, not left to run)
    small = BuildLimits(memory_mb=40)
    starved = build_bundle(cpp_zip(tmp_path, b"int main() { return 0; }\n"), "m.zip", limits=small)
    assert not starved.ok and "the compiler exited with status" in starved.log


@pytest.mark.slow
@pytest.mark.usefixtures("worker_guard")
def test_a_cpp_source_bundle_is_built_once_then_played(tmp_path: Path) -> None:
    from workers.sandbox.bot_process import BotSandbox

    data = cpp_zip(tmp_path, (EXAMPLES / "cpp" / "arena.hpp").read_bytes().replace(
        b"#pragma once", b"") + b"\nint main() { arena::run(\"x\", [](const arena::Value&) {},"
        b" [](const arena::Value&) { return std::string(\"{\\\"index\\\": 0}\"); }); }\n")
    first, _ = cached_build(data, "x.zip")
    again, _ = cached_build(data, "x.zip")  # from the cache: the same bytes, no compile
    assert first == again
    with BotSandbox(data, "x.zip", limits=FAST, builder=cached_build) as box:
        assert box.source is not None and box.source.language == "cpp"
        command = box.plan().command
        assert box.info.language == "binary" and len(command) == 1
        assert Path(command[0]).name == "bot"


# --- memory limits of node ---------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.usefixtures("worker_guard", "tiny_mode")
@pytest.mark.parametrize(
    ("name", "hog"),
    [
        # the JS heap: V8 stops at --max-old-space-size
        ("heap", "globalThis.keep = []; for (;;) globalThis.keep.push(new Array(1e5).fill(1))"),
        # native memory outside the JS heap: the resident-memory check after the reply
        ("native", "globalThis.keep = Buffer.alloc(FAST_MB * 1024 * 1024 + 64e6, 1)"),
    ],
)
def test_node_memory_hogs_fault_with_memory(tmp_path: Path, name: str, hog: str) -> None:
    bot = tmp_path / f"{name}.js"
    bot.write_bytes(js(hog.replace("FAST_MB", str(FAST.memory_mb))))
    roomy = FAST.override(decision_seconds=20.0, bank_seconds=20.0)  # a busy machine: no timeout
    spec = MatchSpec(mode="tiny", seats=(SeatSpec.parse(str(bot)), SeatSpec.parse("random")),
                     seed=3, options={"rounds": 2}, limits=roomy, replay=False)  # fmt: skip
    outcome = run_match(spec)
    assert [(f.seat, f.kind) for f in outcome.faults] == [(0, FaultKind.MEMORY)], [
        f.describe() for f in outcome.faults]  # fmt: skip


@pytest.mark.slow
@pytest.mark.usefixtures("worker_guard", "tiny_mode")
def test_node_plays_within_the_usual_memory_limit(tmp_path: Path) -> None:
    bot = tmp_path / "ok.js"
    bot.write_bytes(js())
    spec = MatchSpec(mode="tiny", seats=(SeatSpec.parse(str(bot)), SeatSpec.parse("random")),
                     seed=3, options={"rounds": 3}, limits=FAST, replay=False)  # fmt: skip
    outcome = run_match(spec)
    assert outcome.faults == [] and outcome.timing[0]["decisions"] == 3


def test_worker_image_installs_every_languages_runtime_and_compiler() -> None:
    dockerfile = (EXAMPLES.parent / "Dockerfile").read_text()
    base = next(line for line in dockerfile.splitlines() if line.startswith("FROM python:"))
    installed = {
        "python3": base.startswith("FROM python:3.11"),
        "node": "FROM node:20-" in dockerfile and "/usr/local/bin/node" in dockerfile,
        "g++": "--no-install-recommends g++" in dockerfile,
    }
    table = bundles.languages()
    tools = {spec["interpreter"] for spec in table.values() if "interpreter" in spec}
    tools |= {spec["build"]["compiler"] for spec in table.values() if "build" in spec}
    assert tools == set(installed) and all(installed.values()), installed


@pytest.mark.slow
@pytest.mark.usefixtures("worker_guard", "tiny_mode")
@pytest.mark.parametrize("layers", ["none", "uid and network only"])
def test_every_language_plays_with_fewer_isolation_layers(tmp_path: Path, layers: str) -> None:
    """On a machine without the jail (no root, or no mount namespace) builds and bots use host
    paths: the compiler writes to a host output folder and binaries run from the bot folder."""
    from workers.sandbox.isolation import Isolation, detect_isolation

    iso = Isolation() if layers == "none" else detect_isolation().without("filesystem", "pid")
    kit = EXAMPLES / "cpp"
    source = zip_bytes(
        {"entrypoint": "random_bot.cpp", "language": "cpp"},
        {"random_bot.cpp": (kit / "random_bot.cpp").read_bytes(),
         "arena.hpp": (kit / "arena.hpp").read_bytes()},
        tmp_path,
    )  # fmt: skip
    built = build_bundle(source, "rnd.zip", isolation=iso)
    assert built.ok, built.log
    first = built.log.splitlines()[0]  # the command, with the zip's paths and no host folder
    assert first == "$ g++ -std=gnu++17 -O2 -pipe -static -I . -o bot random_bot.cpp"
    binary = tmp_path / "built.zip"
    binary.write_bytes(built.bundle or b"")
    js_bot = tmp_path / "bot.js"
    js_bot.write_bytes(js())
    for bot in (binary, js_bot):
        spec = MatchSpec(mode="tiny", seats=(SeatSpec.parse(str(bot)), SeatSpec.parse("random")),
                         seed=3, options={"rounds": 2}, limits=FAST, replay=False)  # fmt: skip
        outcome = run_match(spec, isolation=iso)
        assert outcome.faults == [], [f.describe() for f in outcome.faults]


@pytest.mark.slow
@pytest.mark.usefixtures("worker_guard", "tiny_mode")
def test_a_cpp_bundle_that_does_not_compile_cannot_start(tmp_path: Path) -> None:
    bundle = tmp_path / "bad.zip"
    bundle.write_bytes(cpp_zip(tmp_path, SYNTAX_ERROR))
    spec = MatchSpec(mode="tiny", seats=(SeatSpec.parse(str(bundle)), SeatSpec.parse("random")),
                     seed=3, options={"rounds": 2}, limits=FAST, replay=False)  # fmt: skip
    outcome = run_match(spec)
    assert [(f.seat, f.kind) for f in outcome.faults] == [(0, FaultKind.START_FAILED)]
    assert "main.cpp:2:29: error: expected ';'" in outcome.faults[0].message
