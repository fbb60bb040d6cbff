//! A bundle image as a bundle directory: its manifests and metadata
//! directories (named by its labels) read in memory, and its labels checked
//! against `metadata/annotations.yaml`.
