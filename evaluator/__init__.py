"""br-eval's runner: CLI, task registry for both suites, agents, scoring and results."""

__version__ = "0.1.0"
