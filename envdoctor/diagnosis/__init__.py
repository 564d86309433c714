"""Diagnosis: what turns a snapshot into a report (the enrichment step, the check engine, the
pipeline the commands share)."""
