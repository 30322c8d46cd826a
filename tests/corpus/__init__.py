"""API-server test corpora: Kubernetes 1.30's own validation tables, as data, run end to end."""
