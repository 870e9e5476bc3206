"""Competition logic as pure functions: no Django, no Celery, nothing above the engine.

What a fault costs a seat (``standing``), the limits a bot plays under (``limits``), ratings
(``elo``, ``skill``, ``rating_history``), head-to-head tallies, Swiss pairing and standings
(``swiss``), bracket plans (``bracket_plan``), ladder divisions (``division_plan``) and
scheduling (``ladder_scheduling``), and the paired comparison of two bot versions
(``paired_stats``, ``sprt``). The workers, the Django apps and the command line all ask these
modules, so each rule of the competition is written once (docs/architecture.md).
"""
