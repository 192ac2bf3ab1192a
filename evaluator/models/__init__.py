"""Model backends: a chat model takes messages (text and images) and returns text."""
