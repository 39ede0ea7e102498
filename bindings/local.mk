# bindings: filled in by its issue.
