"""The process's Prometheus metrics, served on /metrics by the bot (bot/health.py). They live in the
service because the times of decisions and renders are taken where the worker pool runs them
(game/service/workers.py); the bot counts its interactions and its courier's deliveries."""

from __future__ import annotations

from prometheus_client import Counter, Gauge, Histogram

INTERACTIONS = Counter("quarterdeck_interactions", "Interactions received from Discord, by type", ["type"])
ERRORS = Counter("quarterdeck_interaction_errors",
                 "Interactions answered with a refusal of the rules, a fault of the service, or an unexpected error",
                 ["kind"])
# decide_job and choose_job are decisions (a player's, a computer captain's); render_job, replay_job and
# sheet_job are renders
JOB_SECONDS = Histogram("quarterdeck_job_seconds", "Time of a decision or render run by the worker pool, by job",
                        ["job"], buckets=(0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0))
DELIVERED = Counter("quarterdeck_outbox_delivered", "Outbox posts delivered to Discord")
FAILED = Counter("quarterdeck_outbox_failures", "Outbox deliveries that failed: retried later, or given up",
                 ["result"])
# read from the database when /metrics is asked (FrontEnd.vitals)
BACKLOG = Gauge("quarterdeck_outbox_backlog", "Outbox posts not yet delivered (pending or being delivered)")
GAMES_LIVE = Gauge("quarterdeck_games_live", "Games not over")
