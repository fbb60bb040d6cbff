//! Why an image could not be read (exit code 2): every variant names the image,
//! and the blob, archive entry or layer entry concerned.

/// Why an image on disk could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ImageError {
    /// A registry reference: olmsat reads images only from disk.
    #[error("{text}: looks like a registry reference, and olmsat does not pull images; save the image first, e.g. skopeo copy docker://{bare} oci:DIR, then give oci:DIR")]
    Registry {
        /// The argument given.
        text: String,
        /// The reference without a `docker://` prefix.
        bare: String,
    },
    /// `oci:`, `oci-archive:` or `docker-archive:` without a path.
    #[error("{text:?}: an image is written oci:DIR[:REF], oci-archive:FILE[:REF] or docker-archive:FILE[:REF|:@N]")]
    Malformed {
        /// The argument given.
        text: String,
    },
    /// A file or directory of the image could not be read.
    #[error("{image}: cannot read {path}: {source}")]
    Io {
        /// The image.
        image: String,
        /// The file concerned.
        path: String,
        /// The underlying error.
        #[source]
        source: std::io::Error,
    },
    /// A file of the image that is not a regular file: a named pipe (never
    /// waited on), a device (never read), a directory.
    #[error("{image}: {path} is a {kind}, not a regular file; olmsat reads only regular files from an image on disk (it never waits on a named pipe or reads a device): save the image again")]
    NotRegular {
        /// The image.
        image: String,
        /// The file concerned.
        path: String,
        /// What it is.
        kind: olmsat_io::FileKind,
    },
    /// A file of a layout directory that is a symbolic link leading outside
    /// the layout.
    #[error("{image}: {path} is a symbolic link to {target}, outside the layout directory; olmsat reads only the layout's own files: copy the file into the layout, or save the image again")]
    LinkOutside {
        /// The image.
        image: String,
        /// The link.
        path: String,
        /// Where it leads.
        target: String,
    },
    /// The memory to hold a file or blob could not be had.
    #[error("{image}: not enough memory to read {what} ({bytes} bytes); free memory, or lower the limits (see docs/images.md)")]
    OutOfMemory {
        /// The image.
        image: String,
        /// The blob or entry.
        what: String,
        /// The bytes asked for.
        bytes: u64,
    },
    /// An archive (`oci-archive`, `docker-archive`) that is not a readable tar.
    #[error("{image}: not a readable image archive ({message}); is the file truncated?")]
    Archive {
        /// The image.
        image: String,
        /// What the tar reader said.
        message: String,
    },
    /// A file the layout or archive must have is missing.
    #[error("{image}: no {what} in the image{hint}")]
    Missing {
        /// The image.
        image: String,
        /// What is missing (`index.json`, a blob, ...).
        what: String,
        /// How to fix it, when known.
        hint: String,
    },
    /// A blob whose size or digest is not the one its descriptor names.
    #[error("{image}: blob {digest}: {what}; the image is corrupt or was modified, save it again")]
    BlobMismatch {
        /// The image.
        image: String,
        /// The blob's digest as named by its descriptor.
        digest: String,
        /// What differs.
        what: String,
    },
    /// A digest olmsat cannot check.
    #[error("{image}: blob {digest}: unsupported digest (sha256 and sha512 are checked)")]
    UnsupportedDigest {
        /// The image.
        image: String,
        /// The digest.
        digest: String,
    },
    /// A JSON document (index, manifest, config) that cannot be read.
    #[error("{image}: {what} {name}: invalid JSON document: {message}")]
    Document {
        /// The image.
        image: String,
        /// What it should be (`index`, `manifest`, `config`).
        what: &'static str,
        /// The blob or file.
        name: String,
        /// The parser's message.
        message: String,
    },
    /// A field of an index, manifest or config whose value is not what the
    /// OCI image specification allows.
    #[error("{image}: {what} {name}: field {field}: {problem}; save the image again with a tool that follows the OCI image specification")]
    Field {
        /// The image.
        image: String,
        /// What the document is (`index`, `manifest`, `config`).
        what: &'static str,
        /// The blob or file.
        name: String,
        /// The field, as a path (`manifests[0].digest`).
        field: String,
        /// What is wrong with it, and how to fix it.
        problem: String,
    },
    /// A media type olmsat does not read.
    #[error("{image}: blob {digest}: unsupported media type {media_type:?}")]
    MediaType {
        /// The image.
        image: String,
        /// The blob.
        digest: String,
        /// Its media type.
        media_type: String,
    },
    /// No image of the layout or archive has the name asked for.
    #[error("{image}: no image named {name:?}; the images are: {available}")]
    NoSuchName {
        /// The image.
        image: String,
        /// The name asked for.
        name: String,
        /// The names there are.
        available: String,
    },
    /// A layout or archive of several images, and none named.
    #[error("{image}: holds {count} images; name one with :REF (one of: {available})")]
    Ambiguous {
        /// The image.
        image: String,
        /// How many images.
        count: usize,
        /// Their names.
        available: String,
    },
    /// A multi-platform index with no image for the platform asked for.
    #[error("{image}: no image for platform {platform}; the index has: {available} (choose one with --platform)")]
    NoPlatform {
        /// The image.
        image: String,
        /// The platform asked for.
        platform: String,
        /// The platforms there are.
        available: String,
    },
    /// A `--platform` value that is not `OS/ARCH[/VARIANT]`.
    #[error("{text:?}: a platform is written OS/ARCH or OS/ARCH/VARIANT (e.g. linux/amd64, linux/arm64/v8)")]
    BadPlatform {
        /// The value given.
        text: String,
    },
    /// A layer that is neither tar, gzip nor zstd, or fails to decompress.
    #[error("{image}: layer {digest}: {message}")]
    Layer {
        /// The image.
        image: String,
        /// The layer blob.
        digest: String,
        /// What went wrong.
        message: String,
    },
    /// An entry of a layer that olmsat refuses to read.
    #[error("{image}: layer {digest}: entry {entry:?}: {why}; the entry is refused and nothing is written")]
    UnsafeEntry {
        /// The image.
        image: String,
        /// The layer blob.
        digest: String,
        /// The entry's path as written in the layer.
        entry: String,
        /// Why it is refused.
        why: String,
    },
    /// A documented limit was passed.
    #[error(
        "{image}: {what} passes the limit of {limit} {unit} olmsat reads (see docs/images.md)"
    )]
    Limit {
        /// The image.
        image: String,
        /// What passed it (a layer, the image's entries, a document).
        what: String,
        /// The limit.
        limit: u64,
        /// Its unit.
        unit: &'static str,
    },
    /// An image that is neither a catalog nor a bundle.
    #[error("{image}: neither a catalog image (label {configs_label}, or a /configs directory) nor a bundle image (labels operators.operatorframework.io.bundle.*, or /manifests and /metadata); its labels: {labels}")]
    UnknownKind {
        /// The image.
        image: String,
        /// The catalog label's name.
        configs_label: &'static str,
        /// The labels it has.
        labels: String,
    },
    /// The catalog directory the image names is not in it.
    #[error("{image}: the catalog directory {dir} (label {label}) is not in the image")]
    NoConfigs {
        /// The image.
        image: String,
        /// The directory.
        dir: String,
        /// Where its name came from.
        label: String,
    },
    /// The catalog directory is a symbolic link that cannot be followed
    /// inside the image.
    #[error("{image}: the catalog directory {dir} (label {label}) {why}")]
    ConfigsLink {
        /// The image.
        image: String,
        /// The directory.
        dir: String,
        /// Where its name came from.
        label: String,
        /// What the link does.
        why: String,
    },
    /// An image of another kind than the command reads.
    #[error("{image}: a {found} image, where a {wanted} is expected")]
    WrongKind {
        /// The image.
        image: String,
        /// What it is.
        found: &'static str,
        /// What was expected.
        wanted: &'static str,
    },
}
