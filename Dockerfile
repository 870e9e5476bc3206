# One image for web, worker and beat (docker-compose.yml picks the command), and the nginx image
# that stands in front of the web (the `proxy` target; docs/deployment.md):
#   docker build -t isle-arena .                        # web, worker, beat (the last stage)
#   docker build --target proxy -t isle-arena-proxy .   # nginx + the collected static files
# gunicorn's sync workers are never exposed to clients: they listen on port 8000 inside the
# deployment's network, and only nginx (port 80 of the proxy image) is published.
# Bot languages (docs/bot-protocol.md, "Languages"): Python 3.11 is the base image's (numpy for
# python3-numpy bots comes from the virtualenv below); Node.js 20
# is the official build, copied from its Debian bookworm image (the same Debian as ours); C++ is
# Debian's g++ 12 with the static C and C++ libraries (bots are linked with -static).
FROM node:20-bookworm-slim AS node

FROM python:3.11-slim-bookworm AS app

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    DATA_DIR=/data

COPY --from=node /usr/local/bin/node /usr/local/bin/node
# g++ compiles C++ bots on upload (libstdc++-12-dev and libc6-dev bring libstdc++.a and libc.a).
RUN apt-get update \
    && apt-get install -y --no-install-recommends g++ \
    && rm -rf /var/lib/apt/lists/* \
    && node --version && g++ --version | head -n 1

WORKDIR /app
COPY requirements.txt .
# The project's packages go into a virtualenv, first on PATH: the image's own python3, which
# runs the Python bots, keeps the standard library alone, and python3-numpy bots are shown the
# virtualenv's numpy and nothing else of it (workers/sandbox/bot_packages.py).
RUN python -m venv /opt/venv && /opt/venv/bin/pip install -r requirements.txt
ENV PATH=/opt/venv/bin:$PATH

# Unprivileged user; /data/* exist in the image so named volumes mounted there inherit ownership.
RUN useradd --create-home --uid 1000 arena \
    && mkdir -p /data/replays /data/bots /data/static \
    && chown -R arena:arena /data
COPY --chown=arena:arena . .
USER arena

EXPOSE 8000
CMD ["gunicorn", "tournament.wsgi:application", "--bind", "0.0.0.0:8000"]

# The static files, collected at build time for nginx (the web collects the same files, with the
# same content-hashed names, into its own STATIC_ROOT for WhiteNoise's manifest).
FROM app AS static
RUN DJANGO_ENV=production SECRET_KEY=collectstatic-only STATIC_ROOT=/tmp/static \
    python manage.py collectstatic --noinput

# The buffering reverse proxy: slow clients wait in nginx, never in a gunicorn worker.
FROM nginx:1.28.0 AS proxy
ENV NGINX_ENVSUBST_FILTER=^ARENA_ \
    ARENA_LISTEN=80 \
    ARENA_UPSTREAM=web:8000 \
    ARENA_STATIC_PARENT=/srv/arena
RUN rm /etc/nginx/conf.d/default.conf
COPY deploy/nginx.conf.template /etc/nginx/templates/arena.conf.template
# Sourced before the template is filled: the body limit from BOT_UPLOAD_MAX_BYTES.
COPY --chmod=755 deploy/nginx-body-limit.envsh /docker-entrypoint.d/15-arena-body-limit.envsh
COPY --from=static /tmp/static /srv/arena/static

# The default target (`docker build .`): the application image.
FROM app
