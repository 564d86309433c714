"""`python -m envdoctor.checks`: rewrite index.json from the registry (run after changing a check's
ids or needs; tests/test_check_index.py fails until you do)."""

from envdoctor.checks import write_index

if __name__ == "__main__":
    print(write_index())
