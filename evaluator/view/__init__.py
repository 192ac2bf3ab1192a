"""Looking at finished runs: `br-eval view` (one self-contained HTML report) and
`br-eval compare` (paired differences). Reads only the typed records (evaluator.records)."""
