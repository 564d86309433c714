"""Exact install commands that fixes print: per OS package manager (`os_packages`) and per Python
installer (`pip_commands`). Pure functions of facts: checks call them."""
