"""docker-compose.yml must describe the seven-service topology and point at files that exist.

No Docker engine runs in CI, so this is the check that the compose file stays in step with the
code: service names, health checks, named volumes, and every module, script and file it names.
"""

import ipaddress
import re
from pathlib import Path

import pytest
import yaml

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def compose() -> dict:
    return yaml.safe_load((REPO / "docker-compose.yml").read_text())


def command_text(service: dict) -> str:
    command = service.get("command", "")
    return " ".join(command) if isinstance(command, list) else str(command)


def test_seven_services(compose: dict) -> None:
    assert set(compose["services"]) == {
        "db", "redis", "objects", "web", "proxy", "worker", "beat"
    }  # fmt: skip


@pytest.mark.parametrize("name", ["db", "redis", "objects", "web", "proxy", "worker"])
def test_health_checks(compose: dict, name: str) -> None:
    check = compose["services"][name]["healthcheck"]
    assert check["test"] and check.get("interval")


def test_worker_is_scalable(compose: dict) -> None:
    """`--scale worker=N` fails when a service pins container_name or a host port."""
    worker = compose["services"]["worker"]
    assert "container_name" not in worker and "ports" not in worker
    assert "--concurrency=1" in command_text(worker)


def test_app_services_wait_for_healthy_backends(compose: dict) -> None:
    for name in ("web", "worker", "beat"):
        depends = compose["services"][name]["depends_on"]
        assert depends["db"]["condition"] == "service_healthy"
        assert depends["redis"]["condition"] == "service_healthy"
        assert depends["objects"]["condition"] == "service_healthy"


def test_app_services_share_no_volume(compose: dict) -> None:
    """Web, workers and beat may run on different hosts: what they share lives in PostgreSQL,
    Redis and the object store, never in a volume."""
    for name in ("web", "worker", "beat"):
        assert not compose["services"][name].get("volumes"), name


def test_files_go_to_the_object_store(compose: dict) -> None:
    env = dict(
        line.split("=", 1)
        for line in (REPO / ".env.example").read_text().splitlines()
        if line and not line.startswith("#")
    )
    assert env["STORAGE_URL"].startswith("s3://")
    assert "endpoint_url=http://objects:9000" in env["STORAGE_URL"]
    assert "minio" in compose["services"]["objects"]["image"]
    assert "storage_init" in command_text(compose["services"]["web"])
    assert (REPO / "tournament/management/commands/storage_init.py").is_file()


def test_named_volumes(compose: dict) -> None:
    declared = set(compose["volumes"])
    assert {"pgdata", "objects"} <= declared
    used = set()
    for service in compose["services"].values():
        for volume in service.get("volumes", []):
            source = volume.split(":")[0] if isinstance(volume, str) else volume["source"]
            assert not source.startswith((".", "/")), f"bind mount {source}: use named volumes"
            used.add(source)
    assert declared == used


def test_env_files_exist(compose: dict) -> None:
    for service in compose["services"].values():
        for entry in service.get("env_file", []):
            if isinstance(entry, str):
                entry = {"path": entry}
            if entry.get("required", True):  # optional ones (a developer's .env) may be absent
                assert (REPO / entry["path"]).is_file(), entry["path"]


def test_build_and_commands_refer_to_existing_files(compose: dict) -> None:
    for name, service in compose["services"].items():
        if "build" in service:
            build = service["build"] if isinstance(service["build"], dict) else {}
            dockerfile = build.get("dockerfile", "Dockerfile")
            assert (REPO / dockerfile).is_file(), f"{name}: {dockerfile}"
        text = command_text(service)
        for module in re.findall(r"-A\s+([\w.]+)", text):
            assert (REPO / (module.replace(".", "/") + ".py")).is_file(), f"{name}: {module}"
        for module in re.findall(r"gunicorn\s+([\w.]+):", text):
            assert (REPO / (module.replace(".", "/") + ".py")).is_file(), f"{name}: {module}"
        if "manage.py" in text:
            assert (REPO / "manage.py").is_file()
        for script in re.findall(r"(scripts/[\w./-]+)", text):
            assert (REPO / script).is_file(), f"{name}: {script}"
    web = command_text(compose["services"]["web"])
    assert "migrate" in web and "collectstatic" in web and "tournament.wsgi:application" in web


def dockerfile_stages() -> dict[str, str]:
    """Stage name (or its index) -> the image it starts from."""
    stages = {}
    for index, match in enumerate(re.finditer(r"^FROM\s+(\S+)(?:\s+AS\s+(\S+))?", (
        REPO / "Dockerfile"
    ).read_text(), re.MULTILINE | re.IGNORECASE)):
        stages[match[2] or str(index)] = match[1]
    return stages


def test_only_the_proxy_is_published(compose: dict) -> None:
    """Slow clients must meet nginx, never gunicorn's sync workers (tests/foundation/
    test_proxy.py shows why): the web has no host port, the proxy has the site's."""
    services = compose["services"]
    published = {name for name, service in services.items() if service.get("ports")}
    assert published == {"proxy"}
    assert services["proxy"]["ports"] == ["8000:80"]
    assert "8000" in [str(port) for port in services["web"]["expose"]]
    assert services["proxy"]["depends_on"]["web"]["condition"] == "service_healthy"
    assert "--bind 0.0.0.0:8000" in command_text(services["web"])


def test_proxy_image_is_the_official_nginx_pinned_with_the_repo_config(compose: dict) -> None:
    proxy = compose["services"]["proxy"]
    assert proxy["build"]["target"] == "proxy"
    stages = dockerfile_stages()
    assert re.fullmatch(r"nginx:\d+\.\d+\.\d+", stages["proxy"]), stages["proxy"]
    dockerfile = (REPO / "Dockerfile").read_text()
    assert "COPY deploy/nginx.conf.template /etc/nginx/templates/" in dockerfile
    template = (REPO / "deploy" / "nginx.conf.template").read_text()
    placeholders = set(re.findall(r"\$\{(ARENA_[A-Z_]+)\}", template))
    # Two come from BOT_UPLOAD_MAX_BYTES, through deploy/nginx-body-limit.envsh.
    derived = {"ARENA_BODY_MAX_BYTES", "ARENA_UPLOAD_LIMIT"}
    assert placeholders == {k for k in proxy["environment"] if k.startswith("ARENA_")} | derived
    assert proxy["environment"]["ARENA_UPSTREAM"] == "web:8000"
    # The app services build the application stage, and so does a plain `docker build .`.
    for name in ("web", "worker", "beat"):
        assert compose["services"][name]["build"]["target"] == "app"
    assert stages[str(len(stages) - 1)] == "app"


def _env_example() -> dict[str, str]:
    return dict(
        line.split("=", 1)
        for line in (REPO / ".env.example").read_text().splitlines()
        if line and not line.startswith("#")
    )

def test_periodic_jobs_have_a_worker_of_their_own(compose: dict) -> None:
    """The reaper and the ladders run on the "periodic" queue, consumed by the beat service's
    own worker, so no backlog of matches delays them; match workers also take the matches sent
    again (tournament/settings.py: Queues)."""
    beat = command_text(compose["services"]["beat"])
    assert "--beat" in beat and re.search(r"-Q\s+periodic(\s|$)", beat), beat
    worker = command_text(compose["services"]["worker"])
    queues = re.search(r"-Q\s+(\S+)", worker).group(1).split(",")
    assert queues == [  # highest lane first (workers/queueing/queues.py)
        "matches.interactive", "matches.workshop", "celery", "matches.retry", "matches.background"
    ]


def test_the_web_trusts_the_proxy_alone(compose: dict) -> None:
    """X-Forwarded-For is read only from the proxy's own address: not from a private range,
    where any other container or host could forge the client's address."""
    proxies = _env_example()["TRUSTED_PROXIES"].split(",")
    address = compose["services"]["proxy"]["networks"]["default"]["ipv4_address"]
    assert proxies == [address]
    subnet = compose["networks"]["default"]["ipam"]["config"][0]["subnet"]
    assert ipaddress.ip_address(address) in ipaddress.ip_network(subnet)
    assert "ports" not in compose["services"]["web"]  # nobody reaches gunicorn but the network


def test_the_proxy_body_limit_follows_the_upload_limit(compose: dict) -> None:
    """nginx's limit comes from BOT_UPLOAD_MAX_BYTES, with the same default as the web's."""
    environment = compose["services"]["proxy"]["environment"]
    default = _env_example()["BOT_UPLOAD_MAX_BYTES"]
    assert environment["BOT_UPLOAD_MAX_BYTES"] == "${BOT_UPLOAD_MAX_BYTES:-" + default + "}"
    dockerfile = (REPO / "Dockerfile").read_text()
    assert "deploy/nginx-body-limit.envsh /docker-entrypoint.d/15-" in dockerfile
