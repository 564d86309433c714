"""`envdoctor fleet`: many node reports summarised into stacks, outliers and GPU faults
(`aggregate`), and the fleet view as text, JSON and Markdown (`render`)."""
