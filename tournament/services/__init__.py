"""Business logic of the tournament: one module per entity, functions named `<entity>_<action>`
with keyword-only arguments. Views and Celery tasks call these; nothing else changes models."""
