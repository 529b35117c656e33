# Quarterdeck in a container (docs/hosting.md; deploy/compose.yaml runs it with PostgreSQL).
#   docker build -t quarterdeck .
#   docker run -d --name quarterdeck --env-file .env -e HEALTH_PORT=127.0.0.1:8080 -v quarterdeck-data:/data quarterdeck
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    MPLCONFIGDIR=/tmp/matplotlib

WORKDIR /app
# the packages, then the migrations: the bot upgrades the database from /app/migrations at start-up
COPY pyproject.toml README.md alembic.ini constraints.txt ./
COPY game game
COPY render render
COPY bot bot
COPY cli cli
COPY web web
COPY migrations migrations
# editable: every entry point (`python -m bot`, `quarterdeck audit`) runs the code in /app, which finds
# alembic.ini and migrations/ beside it. /app stays root's: the bot writes only to /data, its own.
RUN pip install --no-cache-dir -c constraints.txt -e . \
    && useradd --system --no-create-home quarterdeck \
    && mkdir /data && chown quarterdeck:quarterdeck /data

# SQLite by default, in the volume (Compose points DATABASE_URL at PostgreSQL instead). The bot starts
# in /data too, so a relative sqlite URL from an env file (.env.example's) also lands there.
# HEALTH_PORT serves /healthz for the HEALTHCHECK below, inside the container only.
ENV DATABASE_URL=sqlite+aiosqlite:////data/quarterdeck.db \
    HEALTH_PORT=127.0.0.1:8080
VOLUME /data
WORKDIR /data
USER quarterdeck
# /healthz answers 503 when the gateway, the database, the workers or the outbox is in trouble, and
# urlopen raises on it; the slim image has no curl. The port is HEALTH_PORT's, whatever it was set to.
HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 \
    CMD ["python", "-c", "import os, urllib.request; port = os.environ['HEALTH_PORT'].rpartition(':')[2]; urllib.request.urlopen(f'http://127.0.0.1:{port}/healthz', timeout=8)"]
# the migrations run as the bot starts (game/service/opening.py), before it connects to Discord
CMD ["python", "-m", "bot"]
