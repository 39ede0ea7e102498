# examples: filled in by its issue.
