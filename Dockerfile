# One image for web, worker and beat (docker-compose.yml picks the command).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    DATA_DIR=/data

WORKDIR /app
COPY requirements.txt .
RUN pip install -r requirements.txt

# Unprivileged user; /data/* exist in the image so named volumes mounted there inherit ownership.
RUN useradd --create-home --uid 1000 arena \
    && mkdir -p /data/replays /data/bots /data/static \
    && chown -R arena:arena /data
COPY --chown=arena:arena . .
USER arena

EXPOSE 8000
CMD ["gunicorn", "tournament.wsgi:application", "--bind", "0.0.0.0:8000"]
