"""`envdoctor preflight`: the requirement language (`requirements`) and how a snapshot is judged
by it (`judge`). The command itself is `envdoctor.commands.preflight`."""
