# Quarterdeck in a container (docs/hosting.md; deploy/compose.yaml runs it with PostgreSQL).
#   docker build -t quarterdeck .
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
COPY migrations migrations
# editable: every entry point (`python -m bot`, `quarterdeck audit`) runs the code in /app, which finds
# alembic.ini and migrations/ beside it
RUN pip install --no-cache-dir -c constraints.txt -e . \
    && useradd --system --no-create-home quarterdeck

USER quarterdeck
CMD ["python", "-m", "bot"]
