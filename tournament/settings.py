"""Django settings for Isle Arena, read from environment variables.

Every value has a default that gives the embedded development setup (SQLite under DATA_DIR,
Celery tasks queued in files under DATA_DIR for the embedded worker that runserver starts), so a
fresh clone runs with no configuration.
Setting DATABASE_URL / CELERY_BROKER_URL switches to PostgreSQL / a real broker with workers.
DEBUG is off unless DEBUG=1 is set, so the demo and a fresh `runserver` show the site's own error
pages, never Django's debug pages. Production (DJANGO_ENV=production) refuses to start without a
SECRET_KEY and turns on the hardening that `manage.py check --deploy` asks for. The README lists
every variable.
"""

import contextlib
import os
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from kombu import Queue as KombuQueue

from competition.limits import Limits
from tournament.client_address import trusted_networks
from tournament.storage_config import StorageConfigError, file_storages

_LIMITS = Limits()  # the competition's default limits, where a setting below defaults to one


def env_str(name: str, default: str = "") -> str:
    return os.environ.get(name, default).strip()


def env_bool(name: str, default: bool) -> bool:
    """Parse 1/0, true/false, yes/no, on/off; anything else is a configuration error."""
    raw = env_str(name).lower()
    if not raw:
        return default
    if raw in {"1", "true", "yes", "on"}:
        return True
    if raw in {"0", "false", "no", "off"}:
        return False
    raise ImproperlyConfigured(f"{name}={raw!r} is not a boolean (use 1 or 0).")


def env_list(name: str, default: list[str]) -> list[str]:
    raw = env_str(name)
    if not raw:
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


def env_int(name: str, default: int) -> int:
    raw = env_str(name)
    return int(raw) if raw else default


def env_float(name: str, default: float) -> float:
    raw = env_str(name)
    return float(raw) if raw else default


BASE_DIR = Path(__file__).resolve().parent.parent
DATA_DIR = Path(env_str("DATA_DIR") or BASE_DIR / "var").resolve()

# --- Core -------------------------------------------------------------------------------------

DJANGO_ENV = env_str("DJANGO_ENV", "development").lower()
if DJANGO_ENV not in {"development", "production"}:
    raise ImproperlyConfigured(f"DJANGO_ENV={DJANGO_ENV!r}: use development or production.")
PRODUCTION = DJANGO_ENV == "production"
# Django's debug pages list every URL pattern and setting: only for a developer who asks.
DEBUG = env_bool("DEBUG", False)

SECRET_KEY = env_str("SECRET_KEY")
if not SECRET_KEY:
    if PRODUCTION:
        raise ImproperlyConfigured(
            "SECRET_KEY must be set in production (DJANGO_ENV=production). "
            "Generate one with: python -c 'import secrets; print(secrets.token_urlsafe(50))'"
        )
    SECRET_KEY = "django-insecure-isle-arena-development-only"

# Development serves this machine's names (the demo's links use 127.0.0.1), DEBUG or not.
ALLOWED_HOSTS = env_list(
    "ALLOWED_HOSTS", [] if PRODUCTION else ["localhost", "127.0.0.1", "[::1]"]
)
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "tournament.embedded",  # first: its runserver also starts the embedded worker
    "website",  # before the admin: its registration/ and error templates win
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI / ReDoc files served by us: /api/docs/ works offline
    "tournament",
    "replays",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Outside everything that can answer an error, so /api/ errors all get the JSON body.
    "tournament.api.exceptions.ApiErrorBodyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "tournament.login_signals.LoginThrottleMiddleware",  # 429 to password guessing
    "tournament.api.uploads.RequestBodyLimitMiddleware",  # 413 before an oversize body is read
    # Before sessions, CSRF and users: an anonymous page found in the cache costs none of them.
    "tournament.page_cache.PageCacheMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    # Before CSRF: a POST to a read-only page is a 405, not "the form expired".
    "website.error_pages.MethodGuardMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # A fresh set of bot colours for each page drawn (one colour per bot on a page).
    "website.colours.PageColoursMiddleware",
    # Innermost: an empty 405 of a page becomes the site's 405 page (with the user's menu).
    "website.error_pages.NotAllowedPageMiddleware",
]

ROOT_URLCONF = "tournament.urls"
LOGIN_URL = "website:login"
LOGIN_REDIRECT_URL = "website:dashboard"  # unless the login form carries ?next=
LOGOUT_REDIRECT_URL = "website:home"
# Password-reset mails: printed on the console unless a real backend is configured.
EMAIL_BACKEND = env_str("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
EMAIL_HOST = env_str("EMAIL_HOST", "localhost")
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "arena@localhost")
CSRF_FAILURE_VIEW = "tournament.api.exceptions.csrf_failure"  # the JSON error body under /api/
WSGI_APPLICATION = "tournament.wsgi.application"
ASGI_APPLICATION = "tournament.asgi.application"
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": f"django.contrib.auth.password_validation.{name}"}
    for name in (
        "UserAttributeSimilarityValidator",
        "MinimumLengthValidator",
        "CommonPasswordValidator",
        "NumericPasswordValidator",
    )
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

# --- Database ---------------------------------------------------------------------------------
# Embedded SQLite by default; DATABASE_URL (postgres://user@host:5432/name) for real deployments.

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{DATA_DIR / 'arena.sqlite3'}",
        conn_max_age=env_int("DATABASE_CONN_MAX_AGE", 60),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Web, CLI and the embedded worker share one file: WAL plus IMMEDIATE transactions avoid
    # "database is locked" errors when they write at the same time.
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }

# --- Files ------------------------------------------------------------------------------------
# Replays and bot bundles go through named storages, so an S3 backend can replace either one.

STATIC_URL = "static/"
STATIC_ROOT = Path(env_str("STATIC_ROOT") or DATA_DIR / "static")
REPLAY_ROOT = Path(env_str("REPLAY_ROOT") or DATA_DIR / "replays")
BOT_ROOT = Path(env_str("BOT_ROOT") or DATA_DIR / "bots")
MEDIA_ROOT = BOT_ROOT
MEDIA_URL = "media/"

# Created up front: SQLite needs its directory and WhiteNoise warns about a missing STATIC_ROOT.
# A read-only image can still run when every path is configured elsewhere.
for _directory in (DATA_DIR, STATIC_ROOT):
    with contextlib.suppress(OSError):
        _directory.mkdir(parents=True, exist_ok=True)

# Replay frames and other derived data are cached. CACHE_URL=redis://host:6379/1 shares one
# cache between web processes; without it each process keeps its own small in-memory cache.
CACHE_URL = os.environ.get("CACHE_URL", "").strip()
CACHES = {
    "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": CACHE_URL}
    if CACHE_URL
    else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "isle-arena"}
}
# Anonymous reads of the match lists, ladders, league and bot pages are served from the cache
# for up to PAGE_CACHE_SECONDS; any write invalidates them at once (tournament/page_cache.py).
# Only with a shared cache (CACHE_URL): a per-process cache would not see the workers' writes.
PAGE_CACHE_SECONDS = env_int("PAGE_CACHE_SECONDS", 30 if CACHE_URL else 0)

# Live matches: the worker publishes each step for spectators (replays/live.py). The log is a
# Redis list when LIVE_REDIS_URL, CACHE_URL or CELERY_BROKER_URL is Redis, else a file under
# DATA_DIR/live that the embedded worker and the web share.
LIVE_MATCHES = env_bool("LIVE_MATCHES", True)
LIVE_REDIS_URL = env_str("LIVE_REDIS_URL")

# Bot bundles and replays: folders under DATA_DIR, or an S3-compatible object store when
# STORAGE_URL (s3://bucket?endpoint_url=...) or AWS_STORAGE_BUCKET_NAME is set; see
# tournament/storage_config.py. Web and workers then share nothing but that store.
STORAGE_URL = env_str("STORAGE_URL")
AWS_STORAGE_BUCKET_NAME = env_str("AWS_STORAGE_BUCKET_NAME") or None
AWS_S3_ENDPOINT_URL = env_str("AWS_S3_ENDPOINT_URL") or None
AWS_S3_REGION_NAME = env_str("AWS_S3_REGION_NAME") or None
AWS_S3_ADDRESSING_STYLE = env_str("AWS_S3_ADDRESSING_STYLE") or None
AWS_LOCATION = env_str("AWS_LOCATION")
AWS_QUERYSTRING_AUTH = False  # files are streamed by the server, never handed out as URLs
try:
    FILE_STORAGES = file_storages(
        storage_url=STORAGE_URL,
        aws_bucket=AWS_STORAGE_BUCKET_NAME or "",
        aws_location=AWS_LOCATION,
        roots={"replays": REPLAY_ROOT, "bots": BOT_ROOT},
    )
except StorageConfigError as exc:
    raise ImproperlyConfigured(str(exc)) from None

STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        # The manifest storage needs collectstatic; development serves app files directly.
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if PRODUCTION
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
    **FILE_STORAGES,
}

# WhiteNoise serves /static/ in every setup (runserver included, whitenoise.runserver_nostatic):
# from STATIC_ROOT in production, straight from the apps' static/ folders in development, so
# the demo has its styles with DEBUG off and no collectstatic, and an edited file is served as
# it is now.
WHITENOISE_USE_FINDERS = not PRODUCTION
WHITENOISE_AUTOREFRESH = not PRODUCTION

# Workers copy bot bundles from the "bots" storage into a local cache, by sha256: checked on
# arrival, least recently used evicted past this size.
BUNDLE_CACHE_DIR = Path(env_str("BUNDLE_CACHE_DIR") or DATA_DIR / "bundle-cache")
BUNDLE_CACHE_MAX_BYTES = env_int("BUNDLE_CACHE_MAX_BYTES", 512 * 1024 * 1024)
# A replay upload that fails is tried again this many times (doubling the pause from
# REPLAY_UPLOAD_BACKOFF seconds) before the result is handed to a retrying task.
REPLAY_UPLOAD_ATTEMPTS = env_int("REPLAY_UPLOAD_ATTEMPTS", 4)
REPLAY_UPLOAD_BACKOFF = env_float("REPLAY_UPLOAD_BACKOFF", 0.5)
# ... and the task tries again every REPLAY_RECORD_RETRY_SECONDS, up to REPLAY_RECORD_RETRIES
# times (default: one day); its last try records the result without the replay.
REPLAY_RECORD_RETRY_SECONDS = env_float("REPLAY_RECORD_RETRY_SECONDS", 60.0)
REPLAY_RECORD_RETRIES = env_int("REPLAY_RECORD_RETRIES", 1440)

# --- Security (production) --------------------------------------------------------------------

if PRODUCTION:
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^status$", r"^metrics$"]  # probes, scrapers
    SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 31536000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
    SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", True)
    SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", True)
    CSRF_COOKIE_SECURE = env_bool("SECURE_COOKIES", True)
    SECURE_CONTENT_TYPE_NOSNIFF = True
    SECURE_REFERRER_POLICY = "same-origin"
    X_FRAME_OPTIONS = "DENY"
    if env_bool("BEHIND_TLS_PROXY", False):
        SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

# --- REST API ---------------------------------------------------------------------------------

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "PAGE_SIZE": 50,
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "EXCEPTION_HANDLER": "tournament.api.exceptions.exception_handler",
    # "format" is a league field and filter (?format=ladder), not a renderer switch.
    "URL_FORMAT_OVERRIDE": None,
    "DEFAULT_THROTTLE_RATES": {
        "uploads": env_str("THROTTLE_UPLOADS", "30/hour"),
        "matches": env_str("THROTTLE_MATCHES", "60/hour"),
    },
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Isle Arena API",
    "DESCRIPTION": "Bots, leagues, matches and replays for The Isle of Cats.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    # The match status appears in the match detail and in the list's summary rows: one name.
    "ENUM_NAME_OVERRIDES": {
        "MatchStatusEnum": "tournament.models.Match.Status",
        "LeagueStatusEnum": "tournament.models.League.Status",  # league list and detail
    },
    # Swagger UI's scripts, styles and favicon come from this server, never from a CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # The docs page lists the operations folded and leaves out the section of every model
    # expanded (each model is still shown with its operation): drawing them all took seconds
    # (tournament/api/schema_views.py keeps the schema itself).
    "SWAGGER_UI_SETTINGS": {"deepLinking": True, "docExpansion": "list",
                            "defaultModelsExpandDepth": -1},
    # The error body on every operation, and the replays app's plain Django endpoints.
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "tournament.api.schema.complete_schema",
    ],
}

# --- Logins ---------------------------------------------------------------------------------
# Failed logins are counted per client address, per account at an address, and per account
# from every address (tournament/services/login_throttle.py): an address that guesses is
# refused (429 with Retry-After); an account guessed at from many addresses is slowed for the
# addresses new to it (one try per LOGIN_UNDER_ATTACK_SPACING_SECONDS between them), never
# locked: the addresses it logged in from before keep their allowance.

# (Where a login lands, LOGIN_REDIRECT_URL, is set with the site's URLs above: the dashboard.)
LOGIN_FAILURES_PER_ACCOUNT = env_int("LOGIN_FAILURES_PER_ACCOUNT", 10)  # per account+address
LOGIN_FAILURES_PER_ADDRESS = env_int("LOGIN_FAILURES_PER_ADDRESS", 50)
LOGIN_FAILURES_PER_ACCOUNT_TOTAL = env_int("LOGIN_FAILURES_PER_ACCOUNT_TOTAL", 20)
LOGIN_FAILURES_UNDER_ATTACK = env_int("LOGIN_FAILURES_UNDER_ATTACK", 1)
LOGIN_UNDER_ATTACK_SPACING_SECONDS = env_int("LOGIN_UNDER_ATTACK_SPACING_SECONDS", 10)
LOGIN_KNOWN_ADDRESS_DAYS = env_int("LOGIN_KNOWN_ADDRESS_DAYS", 30)
LOGIN_THROTTLE_WINDOW_SECONDS = env_int("LOGIN_THROTTLE_WINDOW_SECONDS", 900)
LOGIN_THROTTLE_PATHS = ["/api/v1/auth/token/", "/accounts/login/", "/admin/login/"]

# Sign-up: accounts made from one client address per window (tournament/services/
# signup_throttle.py); the next one answers 429, so per-account limits cannot be multiplied.
SIGNUPS_PER_ADDRESS = env_int("SIGNUPS_PER_ADDRESS", 5)
SIGNUP_THROTTLE_WINDOW_SECONDS = env_int("SIGNUP_THROTTLE_WINDOW_SECONDS", 3600)

# The proxies in front of the web, named exactly: their addresses (or networks an operator
# chose on purpose, such as a load balancer's own subnet). Only from a peer among them is
# X-Forwarded-For read: the client's address is its right-most hop that is not one of them
# (tournament/client_address.py). Never a whole private range: every client inside it could
# then forge its address. Empty (the default): no proxy, REMOTE_ADDR is the client.
TRUSTED_PROXIES = env_list("TRUSTED_PROXIES", [])
try:
    TRUSTED_PROXY_NETWORKS = trusted_networks(TRUSTED_PROXIES)
except ValueError as exc:
    raise ImproperlyConfigured(str(exc)) from None

# --- Celery -----------------------------------------------------------------------------------
# No broker configured = embedded mode: tasks go to an SQLite file of their own,
# DATA_DIR/broker.sqlite3, through kombu's SQLAlchemy transport (workers/queueing/broker.py says
# why a
# worker is never handed a half-written message there), and the embedded workers
# (workers/queueing/embedded.py, started and supervised by runserver and `manage.py demo`) run them
# with
# beat, off the request path.
# CELERY_TASK_ALWAYS_EAGER=1 runs every task inline in the calling process instead (the test
# suite does so); errors then propagate to the caller.

CELERY_BROKER_URL = env_str("CELERY_BROKER_URL")
EMBEDDED_WORKER = not CELERY_BROKER_URL
EMBEDDED_WORKER_CONCURRENCY = env_int("EMBEDDED_WORKER_CONCURRENCY", 2)
if EMBEDDED_WORKER:
    CELERY_BROKER_URL = f"sqlite:///{DATA_DIR / 'broker.sqlite3'}"
    CELERY_BROKER_TRANSPORT = "workers.queueing.broker:Transport"
    # How often an idle worker looks for a message (each look is one short transaction).
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "polling_interval": env_float("EMBEDDED_WORKER_POLL_SECONDS", 0.5),
    }
    CELERY_RESULT_BACKEND = env_str("CELERY_RESULT_BACKEND") or None
else:
    CELERY_RESULT_BACKEND = env_str("CELERY_RESULT_BACKEND") or CELERY_BROKER_URL
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", False)
CELERY_TASK_EAGER_PROPAGATES = True

# Queues. Matches wait in lanes, one queue each, which match workers consume highest lane first
# (workers/queueing/queues.py; docs/architecture.md, "Queues and lanes"): "matches.interactive"
# (validations and challenges), "matches.workshop" (authors' test games), Celery's
# default queue "celery" (builds, deferred records, analyses), "matches.retry" (a match sent
# again, a ladder newcomer's first match) and "matches.background" (league, ladder and paired
# matches). With MATCH_QUEUE_PER_MODE=1 each mode has its lanes, "matches.<mode>.<lane>" and
# "matches.<mode>" for its background, so that workers can be sized per mode (`celery worker
# -Q matches.standard.interactive,celery,matches.standard.retry,matches.standard`: list the
# queues highest lane first). Periodic jobs go to "periodic", consumed by a worker of their own
# (compose's beat service, the embedded periodic worker: workers/queueing/embedded.py), so
# that no backlog of matches delays the reaper or the ladders. A worker started without -Q
# consumes every queue below, in this order.
MATCH_QUEUE_PER_MODE = env_bool("MATCH_QUEUE_PER_MODE", False)
PERIODIC_QUEUE = "periodic"
MATCH_RETRY_QUEUE = "matches.retry"
CELERY_TASK_DEFAULT_QUEUE = "celery"
CELERY_TASK_QUEUES = [
    KombuQueue(name, routing_key=name)
    for name in (
        "matches.interactive",
        "matches.workshop",
        CELERY_TASK_DEFAULT_QUEUE,
        MATCH_RETRY_QUEUE,
        "matches.background",
        PERIODIC_QUEUE,
    )
]
if not EMBEDDED_WORKER:
    # Redis: BRPOP lists a worker's queues in the order it consumes them instead of rotating
    # them after each message, so the highest lane with a message is served first.
    CELERY_BROKER_TRANSPORT_OPTIONS = {"queue_order_strategy": "priority"}
CELERY_TASK_ROUTES = {
    task: {"queue": PERIODIC_QUEUE}
    for task in (
        "arena.ladders_schedule",
        "arena.matches_reap_stale",
        "arena.bot_builds_resend_lost",
    )
}

# A match lost with its worker is run again rather than dropped; one match per worker slot.
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_TIME_LIMIT = env_int("CELERY_TASK_TIME_LIMIT", 1800)
CELERY_TASK_SOFT_TIME_LIMIT = env_int(
    "CELERY_TASK_SOFT_TIME_LIMIT", max(1, CELERY_TASK_TIME_LIMIT - 100)
)
if CELERY_TASK_SOFT_TIME_LIMIT >= CELERY_TASK_TIME_LIMIT:  # Celery would refuse every task
    raise ImproperlyConfigured(
        f"CELERY_TASK_SOFT_TIME_LIMIT={CELERY_TASK_SOFT_TIME_LIMIT} must be below "
        f"CELERY_TASK_TIME_LIMIT={CELERY_TASK_TIME_LIMIT} (the soft limit warns the task first)."
    )
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]  # never pickle: messages may come from anyone on the broker
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TIMEZONE = TIME_ZONE
CELERY_BEAT_SCHEDULE_FILENAME = str(DATA_DIR / "celerybeat-schedule")
# Periodic jobs of the tournament (on the "periodic" queue, above): top up ladder leagues,
# re-queue matches whose worker died or whose queued message was lost, send again builds whose
# message or worker was lost.
CELERY_BEAT_SCHEDULE: dict = {
    "ladders-schedule": {
        "task": "arena.ladders_schedule",
        "schedule": env_float("LADDER_SCHEDULE_SECONDS", 30.0),
    },
    "matches-reap-stale": {
        "task": "arena.matches_reap_stale",
        "schedule": env_float("REAPER_SECONDS", 10.0),
    },
    "bot-builds-resend-lost": {
        "task": "arena.bot_builds_resend_lost",
        "schedule": env_float("REAPER_SECONDS", 10.0),
    },
}
# A ladder rests (stops scheduling, tournament/ladder_rest.py) once every entrant's OpenSkill σ
# is below LADDER_REST_SIGMA or every pair of entrants has met LADDER_REST_PAIR_GAMES times (a
# solo ladder: every entrant has played that many games); a new entrant or version wakes it.
LADDER_REST_SIGMA = env_float("LADDER_REST_SIGMA", 3.0)
LADDER_REST_PAIR_GAMES = env_int("LADDER_REST_PAIR_GAMES", 10)
# A match whose worker died or whose message was lost is sent again within 60 s:
# * the worker playing a match stamps its heartbeat every MATCH_HEARTBEAT_SECONDS; the reaper
#   (every REAPER_SECONDS) re-queues a running match whose heartbeat is older than
#   MATCH_HEARTBEAT_STALE_SECONDS (four missed beats: a live worker on a busy machine is not
#   taken for dead), so within STALE + REAPER = 30 s of its worker's death;
# * a match queued longer than REAPER_QUEUED_AGE_SECONDS whose message the broker no longer
#   holds (Redis restarted without persistence, a worker killed with the message it had taken)
#   is sent again within AGE + REAPER = 40 s. The reaper reads the broker's queues to tell a
#   lost message from one waiting behind a backlog (workers/queueing/broker.py: waiting_task_args),
# so
#   a long healthy queue gets no duplicates; a duplicate would be harmless anyway (a match
#   already decided is skipped, and a result is recorded once: services/matches.py).
REAPER_QUEUED_AGE_SECONDS = env_float("REAPER_QUEUED_AGE_SECONDS", 30.0)
MATCH_HEARTBEAT_SECONDS = env_float("MATCH_HEARTBEAT_SECONDS", 5.0)
MATCH_HEARTBEAT_STALE_SECONDS = env_float("MATCH_HEARTBEAT_STALE_SECONDS", 20.0)
# A match's play task gets Celery time limits of its worst-case duration (seats x (decisions x
# limit + bank) + startup, see competition/limits.py) plus this margin (half of it: the soft limit).
MATCH_TIME_MARGIN_SECONDS = env_float("MATCH_TIME_MARGIN_SECONDS", 300.0)
# League creation refuses limits whose worst-case match duration exceeds this.
MATCH_WORST_CASE_CEILING_SECONDS = env_float("MATCH_WORST_CASE_CEILING_SECONDS", 3600.0)

# --- Health ---------------------------------------------------------------------------------
# Every Celery worker stamps its row in WorkerHeartbeat this often
# (tournament/worker_heartbeat.py); one
# silent for WORKER_STALE_SECONDS is no longer counted as live by /status and /metrics, and
# organisers and staff see a banner on the site when no match worker is live (beat's periodic
# worker and a worker lacking a required isolation layer play no match: not counted).
WORKER_HEARTBEAT_SECONDS = env_float("WORKER_HEARTBEAT_SECONDS", 5.0)
WORKER_STALE_SECONDS = env_float("WORKER_STALE_SECONDS", 30.0)
# /metrics (Prometheus) with DEBUG off answers staff and `Authorization: Bearer METRICS_TOKEN`
# only; with no token set, staff only. With DEBUG on it is open.
METRICS_TOKEN = env_str("METRICS_TOKEN")
# Where people get the source (for the command line: `git clone` it); the "Write a bot" page
# names it. Empty: the page says to ask the server's operator for it.
SOURCE_REPOSITORY_URL = env_str("SOURCE_REPOSITORY_URL")

# --- Bot sandbox ------------------------------------------------------------------------------

BOT_DECISION_TIME_LIMIT = env_float("BOT_DECISION_TIME_LIMIT", 1.0)  # seconds per decision
BOT_TIME_BANK = env_float("BOT_TIME_BANK", 30.0)  # seconds of overrun per match
# Bots are charged CPU time; the wall clock only guards against a bot that sleeps: a decision's
# wall-clock ceiling is this x the limit + the bank left (at least competition.limits' floor),
# plus the time the bot waited for a CPU. Default: competition.limits.Limits.wall_factor.
BOT_WALL_FACTOR = env_float("BOT_WALL_FACTOR", _LIMITS.wall_factor)
# A bot version that faults in this many rated matches in a row is suspended from scheduling
# (docs/bot-protocol.md, Faults); its author's "resume", or a new version, lifts it.
FAULT_SUSPEND_AFTER = env_int("FAULT_SUSPEND_AFTER", 5)
# A validation match plays under the limits above (also the defaults of leagues and
# challenges), so that its `start` message reads exactly like a league match's: a bot cannot
# behave only while validated. A new upload starts on a cold worker, so its startup gets this
# many extra seconds, which the bot is not told about.
BOT_VALIDATION_STARTUP_GRACE_SECONDS = env_float("BOT_VALIDATION_STARTUP_GRACE_SECONDS", 20.0)
# One memory limit (MiB) per bot: its processes together, in its cgroup (no swap), and the
# address space of each of them (workers/sandbox/memory_cgroup.py, docs/bot-protocol.md).
BOT_MEMORY_LIMIT_MB = env_int("BOT_MEMORY_LIMIT_MB", 512)
# 32 MiB: room for a model's weights beside the code (python3-numpy bots load them with np.load).
BOT_UPLOAD_MAX_BYTES = env_int("BOT_UPLOAD_MAX_BYTES", 32 * 1024 * 1024)
# Compiled languages (C++) are built once, on upload, on a worker, in the sandbox.
BOT_BUILD_TIME_LIMIT = env_float("BOT_BUILD_TIME_LIMIT", 120.0)  # seconds (wall clock)
BOT_BUILD_MEMORY_MB = env_int("BOT_BUILD_MEMORY_MB", 1024)  # per compiler process
# A version still waiting for its build this long after the task was sent (and after any
# worker began it) gets the task again: the broker lost it, or its worker died. Never less
# than BOT_BUILD_TIME_LIMIT + 60 s (a build still compiling is not taken over).
BOT_BUILD_RESEND_AGE_SECONDS = env_float("BOT_BUILD_RESEND_AGE_SECONDS", 300.0)

# Fail closed: a match (or a build) whose worker lacks one of these isolation layers does not
# start a single bot; it fails with the reason on the match and in the worker's log. Layers:
# uid, network, filesystem, pid, memory (docs/bot-protocol.md), or "none". Every layer by
# default in production (DJANGO_ENV=production, or DEBUG off with a broker); none for the
# embedded default, which runs bots with what the machine has and says so in its log and on
# each match.
from workers.sandbox.isolation import LAYERS as SANDBOX_LAYERS  # noqa: E402 (no Django in it)

_production = DJANGO_ENV == "production" or (not DEBUG and not EMBEDDED_WORKER)
SANDBOX_REQUIRED_ISOLATION = [
    layer
    for layer in env_list("SANDBOX_REQUIRED_ISOLATION", list(SANDBOX_LAYERS) if _production else [])
    if layer != "none"
]
for _layer in SANDBOX_REQUIRED_ISOLATION:
    if _layer not in SANDBOX_LAYERS:
        raise ImproperlyConfigured(
            f"SANDBOX_REQUIRED_ISOLATION: unknown layer {_layer!r} "
            f"(use a comma list of {', '.join(SANDBOX_LAYERS)}, or none)."
        )

# --- Tournament -------------------------------------------------------------------------------

# Challenge matches (unrated, any user): per-user limits, counted from the matches themselves.
CHALLENGES_PER_HOUR = env_int("CHALLENGES_PER_HOUR", 20)
CHALLENGES_ACTIVE_MAX = env_int("CHALLENGES_ACTIVE_MAX", 3)
CHALLENGE_RETRY_SECONDS = env_int("CHALLENGE_RETRY_SECONDS", 30)  # Retry-After while at the cap
# An author's test games (tournament/services/test_games.py): at most this many queued or
# running at once, and this many in any 24 hours.
TEST_GAMES_RUNNING_PER_AUTHOR = env_int("TEST_GAMES_RUNNING_PER_AUTHOR", 1)
TEST_GAMES_PER_DAY = env_int("TEST_GAMES_PER_DAY", 10)
# The workshop gate (tournament/services/workshop_gate.py): workshop work (test games, boss
# leagues' promotion games) is sent to the broker at most this many matches at a time, so a
# league match waits behind at most this many of them.
WORKSHOP_SLOTS = env_int("WORKSHOP_SLOTS", 1)
if WORKSHOP_SLOTS < 1:
    raise ImproperlyConfigured(f"WORKSHOP_SLOTS={WORKSHOP_SLOTS}: use 1 or more (0 plays none).")
PAIRED_ACTIVE_MAX = env_int("PAIRED_ACTIVE_MAX", 2)  # running paired comparisons per user
# seeds of a paired comparison in flight at once (its SPRT reads them in order and stops early)
PAIRED_WINDOW_SEEDS = env_int("PAIRED_WINDOW_SEEDS", 4)
# Boss leagues (competition/data/boss_leagues.json): a version made ready starts a promotion run
# against its bot's next gate, its games let through the workshop gate.
BOSS_LEAGUES = env_bool("BOSS_LEAGUES", True)
# The file of the gates (the shape of competition/data/boss_leagues.json); "" for that file.
BOSS_LEAGUES_DATA = env_str("BOSS_LEAGUES_DATA", "")

ELO_K = env_float("ELO_K", 32.0)

# Win-chance analysis of a finished match (replayfile/win_chances.py), on request: playouts per
# point (frame 0, each day's end), and per-user requests in any rolling hour.
ANALYSIS_PLAYOUTS = env_int("ANALYSIS_PLAYOUTS", 400)
ANALYSIS_PER_HOUR = env_int("ANALYSIS_PER_HOUR", 5)

# --- Logging ----------------------------------------------------------------------------------

LOG_LEVEL = env_str("LOG_LEVEL", "INFO").upper()
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "plain": {"format": "%(asctime)s %(levelname)s %(name)s %(process)d: %(message)s"},
    },
    "handlers": {
        "stderr": {
            "class": "logging.StreamHandler",
            "stream": "ext://sys.stderr",
            "formatter": "plain",
        },
    },
    "root": {"handlers": ["stderr"], "level": LOG_LEVEL},
    "loggers": {
        "django": {"handlers": ["stderr"], "level": LOG_LEVEL, "propagate": False},
    },
}
