"""The sandbox for untrusted bots: bundles as uploaded and unpacked, compiled builds, the
isolation layers of this host, and the bot process itself (``bot_process``). No Django."""
