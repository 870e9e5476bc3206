# Sourced by demo.sh and test.sh: make .venv (Python 3.11+) if missing and install $1 into it,
# and the checkout itself in editable mode (once), which puts the `isle-arena` command in
# .venv/bin and lets `python -m arena` run from any directory. Sets $py to the venv's interpreter.
ensure_venv() {
    local requirements=$1 python
    if [ ! -x .venv/bin/python ]; then
        python=$(command -v python3.11 || command -v python3) || {
            echo "Python 3.11+ is required (python3.11 or python3 on PATH)" >&2
            return 1
        }
        if ! "$python" -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
            echo "$python is $("$python" --version 2>&1); Python 3.11+ is required" >&2
            return 1
        fi
        echo "creating .venv with $python"
        "$python" -m venv .venv
    fi
    py=.venv/bin/python
    "$py" -m pip install --quiet --disable-pip-version-check -r "$requirements"
    if [ ! -x .venv/bin/isle-arena ]; then
        "$py" -m pip install --quiet --disable-pip-version-check --no-deps -e .
    fi
}
