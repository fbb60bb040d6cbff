//! OLM v0 dependency resolution (see the resolver issue).
