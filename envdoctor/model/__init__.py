"""The model: the shapes every layer shares (snapshot, findings, report, fact records) and the
identity of hardware and packages (PCI addresses, GPU targets, wheel variants). Pure data and
pure functions: the model imports nothing else of envdoctor."""
