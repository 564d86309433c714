"""`envdoctor fit`: a workload's GPU memory (`estimate`), whether a GPU runs its number format
(`precision`), the verdict with what to change (`plan`) and its output forms (`render`)."""
