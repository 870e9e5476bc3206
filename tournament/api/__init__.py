"""The REST API (v1): thin views that validate input, call one service and serialize output."""
