"""Small pure questions asked of the matrices (one module per domain)."""
