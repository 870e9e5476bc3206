# One image for web, worker and beat (docker-compose.yml picks the command).
# Bot languages (docs/bot-protocol.md, "Languages"): Python 3.11 is the base image's (numpy for
# python3-numpy bots comes from the virtualenv below); Node.js 20
# is the official build, copied from its Debian bookworm image (the same Debian as ours); C++ is
# Debian's g++ 12 with the static C and C++ libraries (bots are linked with -static).
FROM node:20-bookworm-slim AS node

FROM python:3.11-slim-bookworm

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
# virtualenv's numpy and nothing else of it (workers/bot_packages.py).
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
