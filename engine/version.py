"""The engine's version, recorded in every match and replay.

Bump the minor number whenever a rule change can alter the outcome of an
existing (config, seed, actions) triple; replays record it so that old
results stay explainable.
"""

ENGINE_VERSION = "1.1.0"  # 1.1: top copy of a rare stack; family map reward common only
