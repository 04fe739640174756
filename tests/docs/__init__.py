"""The repository checks itself: the docs site, the README, the figures, ARCHITECTURE.md and its
clause map, the generated files, the corpora it carries, and no machine path or outside tracker."""
