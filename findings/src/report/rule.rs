//! The rules behind every finding: a stable identifier, the severity a finding
//! of the rule has unless a [`Policy`](super::Policy) changes it, and help text.
//!
//! Identifiers are kebab-case and never change meaning; they are what
//! `--allow`/`--deny`, the configuration file, JSON (`"rule"`) and SARIF
//! (`ruleId`) name. `docs/validation.md` documents each one.

use std::fmt;
use std::str::FromStr;

use crate::diagnostic::Severity;

macro_rules! rules {
    ($(
        $(#[doc = $doc:literal])*
        $variant:ident = $id:literal, $severity:ident, $summary:literal, $help:literal;
    )*) => {
        /// A rule a finding was made by.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Rule {
            $( $(#[doc = $doc])* $variant, )*
        }

        impl Rule {
            /// Every rule, in the order they are declared (load, catalog, bundle,
            /// build, diff).
            pub const ALL: &'static [Rule] = &[$(Rule::$variant),*];

            /// The stable identifier, e.g. `multiple-heads`.
            pub fn id(self) -> &'static str {
                match self { $(Rule::$variant => $id,)* }
            }

            /// The severity a finding of this rule has unless a policy changes it.
            pub fn default_severity(self) -> Severity {
                match self { $(Rule::$variant => Severity::$severity,)* }
            }

            /// What the rule checks, in one sentence.
            pub fn summary(self) -> &'static str {
                match self { $(Rule::$variant => $summary,)* }
            }

            /// How to fix a finding of this rule.
            pub fn help(self) -> &'static str {
                match self { $(Rule::$variant => $help,)* }
            }
        }
    };
}

rules! {
    // Reading files (catalogs and bundles).
    /// A path cannot be read: permissions, a vanished file, a symbolic-link loop.
    Unreadable = "unreadable", Error,
        "A path could not be read.",
        "Check that the path exists and is readable; remove symbolic-link loops.";
    /// A symbolic link inside a catalog points outside it.
    SymlinkOutsideCatalog = "symlink-outside-catalog", Warning,
        "A symbolic link inside the catalog points outside it and is skipped.",
        "Copy the target into the catalog, or remove the link.";
    /// A symbolic link inside a bundle points outside it.
    SymlinkOutsideBundle = "symlink-outside-bundle", Warning,
        "A symbolic link inside a bundle points outside it and is skipped, so its target is never read or published.",
        "Copy the target into the bundle, or remove the link: a file that leaves its bundle is never read, even with --follow.";
    /// A named pipe, socket or device in a directory olmsat reads.
    SpecialFileSkipped = "special-file-skipped", Warning,
        "A named pipe, socket or device in a catalog or bundle directory is skipped: olmsat reads regular files only.",
        "Remove it, or exclude it with an .indexignore file.";
    /// A file larger than olmsat reads.
    FileTooLarge = "file-too-large", Error,
        "A file is larger than the 1 GiB olmsat reads.",
        "Split the file, or exclude it with an .indexignore file.";
    /// Invalid UTF-8 or a NUL byte.
    NotText = "not-text", Error,
        "A file is not UTF-8 text (invalid UTF-8 or a NUL byte).",
        "Save the file as UTF-8, or exclude binary files with an .indexignore file.";
    /// Malformed JSON or YAML, or a bad document separator.
    ParseError = "parse-error", Error,
        "A file is not well-formed JSON or YAML.",
        "Fix the syntax at the position given.";
    /// A YAML mapping with the same key twice.
    YamlDuplicateKey = "yaml-duplicate-key", Warning,
        "A YAML mapping holds the same key twice; the last value is used, as opm does.",
        "Remove one of the two keys.";
    /// A document that is not an object (an array, a string, nothing).
    NotAnObject = "not-an-object", Error,
        "A catalog document is not a JSON/YAML object.",
        "Write one object per document; a catalog file holds objects one after another, not an array.";
    /// A document without a string `schema`.
    MissingSchema = "missing-schema", Error,
        "A catalog document has no string schema field.",
        "Add \"schema\" (olm.package, olm.channel, olm.bundle, olm.deprecations or your own), or exclude the file with an .indexignore file.";
    /// Two keys that differ only in case.
    DuplicateKey = "duplicate-key", Error,
        "An object holds two keys that differ only in case, which Go's decoder cannot tell apart.",
        "Keep one spelling of the key.";
    /// A known blob with a field of the wrong type or shape.
    InvalidBlob = "invalid-blob", Error,
        "A field of an olm.* blob has the wrong type, or a property lacks its type or value.",
        "Give the field the type opm expects (see the message for Go's type).";
    /// A property without a type or a value (opm's loading lets it through).
    IncompleteProperty = "incomplete-property", Warning,
        "A property has no type, or no value; opm loads it (a bundle's property without a value then fails as unexpected end of JSON input).",
        "Give every property its type and its value.";
    /// A file that starts like a JSON stream behind a byte-order mark or a
    /// comment line, which opm reads as YAML (keeping its first object only).
    JsonReadAsYaml = "json-read-as-yaml", Warning,
        "A JSON stream starts behind a byte-order mark or a comment, so opm reads the file as YAML and keeps only its first object.",
        "Remove the byte-order mark or the comment before the first '{'.";
    /// An unknown field in a known blob or channel entry.
    UnknownField = "unknown-field", Warning,
        "An olm.* blob or channel entry has a field opm does not know; opm ignores it and render drops it.",
        "Fix the field name's spelling, or remove the field.";

    // Catalog conversion (opm's ConvertToModel).
    /// An `olm.package` without a name.
    PackageNameMissing = "package-name-missing", Error,
        "An olm.package blob has no name.",
        "Set the package's name.";
    /// Two `olm.package` blobs with one name.
    DuplicatePackage = "duplicate-package", Error,
        "Two olm.package blobs have the same name.",
        "Remove or rename one of them.";
    /// A package name that is not a DNS-1123 label.
    InvalidPackageName = "invalid-package-name", Error,
        "A package name is not a DNS-1123 label.",
        "Use lowercase letters, digits and '-', at most 63 characters.";
    /// A channel or bundle of a package without an `olm.package` blob.
    UnknownPackage = "unknown-package", Error,
        "A channel or bundle names a package that has no olm.package blob.",
        "Add the olm.package blob, or fix the package name.";
    /// A channel without a name.
    ChannelNameMissing = "channel-name-missing", Error,
        "An olm.channel blob has no name.",
        "Set the channel's name.";
    /// Two channels of one name in a package.
    DuplicateChannel = "duplicate-channel", Error,
        "A package has two olm.channel blobs of the same name.",
        "Merge the two channels' entries into one blob.";
    /// A channel that lists a bundle twice.
    DuplicateChannelEntry = "duplicate-channel-entry", Error,
        "A channel lists the same bundle twice.",
        "Remove the second entry.";
    /// A bundle without a package.
    BundlePackageMissing = "bundle-package-missing", Error,
        "An olm.bundle blob has no package.",
        "Set the bundle's package.";
    /// Two bundles of one name in a package.
    DuplicateBundle = "duplicate-bundle", Error,
        "A package has two bundles of the same name.",
        "Remove or rename one of them.";
    /// A property value of the wrong shape.
    InvalidProperty = "invalid-property", Error,
        "A property's value does not have the shape its type requires.",
        "Fix the value (see the message for the field and Go's type).";
    /// A bundle without exactly one `olm.package` property.
    PackagePropertyCount = "package-property-count", Error,
        "A bundle does not have exactly one olm.package property.",
        "Give the bundle one olm.package property with packageName and version.";
    /// A bundle whose `olm.package` property names another package.
    PackagePropertyMismatch = "package-property-mismatch", Error,
        "A bundle's olm.package property names a different package than the bundle.",
        "Make the property's packageName equal to the bundle's package.";
    /// A version or release that is not semver.
    InvalidVersion = "invalid-version", Error,
        "A bundle's version or release version is not a valid semantic version.",
        "Use strict semver: MAJOR.MINOR.PATCH, no 'v' prefix, no leading zeros.";
    /// An image reference that cannot be parsed.
    InvalidImage = "invalid-image", Error,
        "An image reference is not a valid image pull spec.",
        "Use registry/repository[:tag][@sha256:digest].";
    /// A bundle that no channel lists.
    BundleNotInChannel = "bundle-not-in-channel", Error,
        "A bundle is listed in no channel of its package.",
        "Add the bundle to a channel, or remove the bundle.";
    /// A channel entry without an `olm.bundle` blob.
    MissingBundle = "missing-bundle", Error,
        "A channel lists bundles that have no olm.bundle blob.",
        "Add the bundles' blobs (opm render the bundle images), or remove the entries.";
    /// Anything wrong with an `olm.deprecations` blob.
    InvalidDeprecation = "invalid-deprecation", Error,
        "An olm.deprecations blob is malformed or names something that does not exist.",
        "Fix the deprecation entry named in the message.";

    // Catalog model (opm's Model.Validate).
    /// A package without a default channel.
    DefaultChannelMissing = "default-channel-missing", Error,
        "A package has no default channel.",
        "Set defaultChannel in the olm.package blob to one of the package's channels.";
    /// A package without channels.
    NoChannels = "no-channels", Error,
        "A package has no channel.",
        "Add an olm.channel blob for the package.";
    /// Two bundles of one version.
    DuplicateVersions = "duplicate-versions", Error,
        "Two bundles of a package have the same version.",
        "Give each bundle its own version (or release).";
    /// A deprecation without a message.
    DeprecationMessageMissing = "deprecation-message-missing", Error,
        "A deprecation entry has an empty message.",
        "Write a message telling users what to do instead.";
    /// A channel without entries.
    EmptyChannel = "empty-channel", Error,
        "A channel has no entries (or the default channel has no olm.channel blob).",
        "Add entries to the channel, or remove it (and point defaultChannel elsewhere).";
    /// A channel whose every entry is replaced or skipped.
    NoChannelHead = "no-channel-head", Error,
        "A channel has no head: every entry is replaced or skipped by another.",
        "Break the loop of replaces/skips so one entry is the newest.";
    /// A channel with several heads.
    MultipleHeads = "multiple-heads", Error,
        "A channel has more than one head (entries nothing replaces or skips).",
        "Link the heads with replaces or skips; skipRange does not count for this check.";
    /// A cycle in the replaces chain.
    ReplacesCycle = "replaces-cycle", Error,
        "The replaces chain of a channel loops.",
        "Remove the replaces that closes the loop.";
    /// Entries neither on the replaces chain nor skipped.
    StrandedBundles = "stranded-bundles", Error,
        "Channel entries are neither on the replaces chain from the head nor skipped by any entry.",
        "Make the entries part of the chain with replaces, skip them, or remove them.";
    /// A channel entry without a name.
    BundleNameMissing = "bundle-name-missing", Error,
        "A channel entry has no name.",
        "Set the entry's name.";
    /// A bundle with a release whose name is not the normalized name.
    NameNotNormalized = "name-not-normalized", Error,
        "A bundle with a release version is not named <package>-v<version>-<release>.",
        "Rename the bundle to the normalized name given.";
    /// An empty `skips` item.
    EmptySkip = "empty-skip", Error,
        "A skips list holds an empty name.",
        "Remove the empty item.";
    /// A skipRange that is not a blang semver range.
    InvalidSkiprange = "invalid-skiprange", Error,
        "A skipRange is not a valid blang/semver range.",
        "Use blang's grammar: space is AND, || is OR, e.g. '>=1.0.0 <1.2.0'.";
    /// A bundle with neither image nor bundle objects.
    BundleImageMissing = "bundle-image-missing", Error,
        "A bundle has no image and no olm.bundle.object properties.",
        "Set the bundle's image.";
    /// Build metadata in a version that has a release.
    BuildMetadataWithRelease = "build-metadata-with-release", Error,
        "A bundle's version has build metadata and the bundle has a release version.",
        "Drop the build metadata, or the release version.";
    /// A skipRange that matches no other bundle of its channel.
    SkiprangeMatchesNothing = "skiprange-matches-nothing", Warning,
        "A skipRange matches no other bundle of its channel, and does not reach below the channel's lowest version.",
        "Fix the range's bounds; a range meant for versions pruned from the catalog should reach below the channel's lowest version.";
    /// A channel entry from which OLM v0 never reaches the channel's head.
    NeverReachesHead = "never-reaches-head", Warning,
        "OLM v0 never takes users of this channel entry to the channel's head: its upgrades stop short (a dead end, or a loop), for the reason `olmsat path` gives.",
        "Let the head (or an entry on the way) skip the whole range of versions left behind, with skips naming each of them or a skipRange containing them.";
    /// A `replaces` naming no bundle of the package.
    ReplacesNotFound = "replaces-not-found", Warning,
        "A replaces names a bundle that is not in the catalog and looks like a mistake: its version is not lower than the entry's, or a bundle of that version has another name (or, for from-bundles, it is not in the tree).",
        "Fix the name (the message names the closest bundle). A replaces of a lower, pruned version is the normal tail of a channel and is not reported: keep it, clusters still upgrade through it.";
    /// A property type that looks like a misspelled `olm.*` type.
    MisspelledPropertyType = "misspelled-property-type", Warning,
        "A property type looks like a misspelling of an olm.* type; OLM ignores unknown types.",
        "Spell the type as OLM does (e.g. olm.skipRange, olm.gvk.required).";
    /// Versions that differ only in build metadata.
    BuildMetadataOnly = "build-metadata-only", Warning,
        "Bundles have versions that differ only in build metadata, which semver precedence cannot order.",
        "Give the bundles distinct versions.";
    /// A name holding control characters.
    ControlCharacterInName = "control-character-in-name", Warning,
        "A package, channel or bundle name holds a control character (such as ESC or BEL), which can rewrite a terminal that prints it.",
        "Remove the control characters from the name.";
    /// Model checks skipped after a read error.
    ModelChecksSkipped = "model-checks-skipped", Warning,
        "A package's model checks were skipped because some of its files could not be read completely.",
        "Fix the read errors reported for the package's files.";

    // Bundle directories.
    /// A bundle directory layout problem (no manifests/ or metadata/).
    DirectoryMissing = "directory-missing", Error,
        "A bundle lacks its manifests/ or metadata/ directory.",
        "Lay the bundle out as manifests/ and metadata/ (see olmsat bundle init).";
    /// Subdirectories of manifests/ where they are not allowed.
    NestedManifests = "nested-manifests", Error,
        "The manifests directory of a plain+v0 or registry+v2 bundle has subdirectories.",
        "Move the files up into manifests/.";
    /// Subdirectories of manifests/ that registry+v1 ignores.
    ManifestsSubdirectoryIgnored = "manifests-subdirectory-ignored", Warning,
        "A subdirectory of manifests/ is ignored: registry+v1 manifests are read non-recursively.",
        "Move the files up into manifests/, or remove the subdirectory.";
    /// A manifest file with several YAML documents.
    MultiDocumentManifest = "multi-document-manifest", Warning,
        "A manifest file holds several documents; opm and OLM read only the first.",
        "Put each object in a file of its own.";
    /// A document that is not a Kubernetes object.
    NotKubernetesObject = "not-kubernetes-object", Error,
        "A manifest document is not a Kubernetes object (no string apiVersion or kind).",
        "Give the object apiVersion and kind, or remove the file.";
    /// A manifest kind registry+v1 does not support.
    UnsupportedKind = "unsupported-kind", Error,
        "A manifest's kind is not supported in a registry+v1 bundle.",
        "Remove the object, or ship it another way.";
    /// More than one CSV.
    MultipleCsvs = "multiple-csvs", Error,
        "A bundle holds more than one ClusterServiceVersion.",
        "Keep one ClusterServiceVersion per bundle.";
    /// No objects in the bundle.
    NoBundleObjects = "no-bundle-objects", Error,
        "A bundle's manifests directory holds no Kubernetes objects.",
        "Add the bundle's manifests.";
    /// No CSV in a registry+v1 bundle.
    NoCsv = "no-csv", Error,
        "A registry+v1 bundle has no ClusterServiceVersion.",
        "Add the operator's ClusterServiceVersion to manifests/.";
    /// A CSV in a CSV-less (registry+v2) bundle.
    CsvInCsvlessBundle = "csv-in-csvless-bundle", Error,
        "A registry+v2 bundle holds a ClusterServiceVersion.",
        "Remove the CSV, or mark the bundle registry+v1.";
    /// No Deployment in a registry+v2 bundle.
    NoDeployment = "no-deployment", Error,
        "A registry+v2 bundle has no Deployment.",
        "Add the operator's Deployment to manifests/.";
    /// `metadata/bundle.yaml` missing or wrong.
    InvalidBundleYaml = "invalid-bundle-yaml", Error,
        "metadata/bundle.yaml of a registry+v2 bundle is missing or malformed.",
        "Write bundle.yaml with the fields given in the message.";
    /// `metadata/bundle.yaml` in a registry+v1 bundle.
    BundleYamlIgnored = "bundle-yaml-ignored", Warning,
        "metadata/bundle.yaml belongs to registry+v2 bundles and is ignored in registry+v1.",
        "Remove the file, or mark the bundle registry+v2.";
    /// No annotations file, or a malformed one.
    InvalidAnnotations = "invalid-annotations", Error,
        "metadata/annotations.yaml is missing or is not a mapping of strings.",
        "Write annotations.yaml with an annotations mapping of string values (olmsat bundle generate writes one).";
    /// A required annotation missing.
    AnnotationMissing = "annotation-missing", Error,
        "A required bundle annotation is missing.",
        "Add the annotation named in the message.";
    /// An annotation with the wrong value.
    AnnotationMismatch = "annotation-mismatch", Error,
        "A bundle annotation has the wrong or an empty value.",
        "Set the annotation to the value given in the message.";
    /// The default channel is not one of the bundle's channels.
    DefaultChannelNotListed = "default-channel-not-listed", Warning,
        "The default channel annotation names none of the bundle's channels.",
        "Add the default channel to the channels annotation, or change it.";
    /// A channel listed twice in the channels annotation.
    DuplicateChannelAnnotation = "duplicate-channel-annotation", Warning,
        "The channels annotation lists a channel twice.",
        "Remove the repetition.";
    /// A problem in the CSV's fields.
    InvalidCsv = "invalid-csv", Error,
        "A ClusterServiceVersion field is missing or invalid (name, version, release, replaces, skips, annotations).",
        "Fix the field named in the message.";
    /// A CSV annotation that looks like a misspelling.
    MisspelledCsvAnnotation = "misspelled-csv-annotation", Warning,
        "A CSV annotation looks like a misspelling of one OLM reads; OLM ignores it.",
        "Spell the annotation as OLM does (e.g. olm.skipRange).";
    /// A CRD problem.
    InvalidCrd = "invalid-crd", Error,
        "A CustomResourceDefinition is malformed (name not plural.group, no versions).",
        "Fix the CRD named in the message.";
    /// An owned CRD listed twice.
    DuplicateOwnedCrd = "duplicate-owned-crd", Error,
        "The CSV lists an owned CRD twice.",
        "Remove the second listing.";
    /// An owned CRD not shipped.
    OwnedCrdMissing = "owned-crd-missing", Error,
        "The CSV owns a CRD the bundle does not contain.",
        "Add the CRD's manifest to the bundle, or remove it from spec.customresourcedefinitions.owned.";
    /// A CRD not mentioned by the CSV.
    CrdNotInCsv = "crd-not-in-csv", Warning,
        "The bundle contains a CRD the CSV does not list as owned.",
        "List the CRD under spec.customresourcedefinitions.owned.";
    /// A malformed entry of dependencies.yaml or properties.yaml.
    InvalidMetadataList = "invalid-metadata-list", Error,
        "metadata/dependencies.yaml or properties.yaml is not a list of mappings with a string type.",
        "Write the file as a list of {type, value} mappings under its key.";
    /// A malformed dependency.
    InvalidDependency = "invalid-dependency", Error,
        "A dependency in metadata/dependencies.yaml is malformed.",
        "Fix the dependency named in the message.";
    /// An entry list declaring nothing.
    EmptyDeclaration = "empty-declaration", Warning,
        "metadata/dependencies.yaml or properties.yaml has no list, so it declares nothing.",
        "Put the entries under the dependencies: or properties: key.";
    /// A bundle property without a value.
    PropertyValueMissing = "property-value-missing", Warning,
        "A bundle property has no value; catalogs require one.",
        "Give the property a value.";
    /// An `olm.*` property type OLM does not define.
    UnknownOlmPropertyType = "unknown-olm-property-type", Warning,
        "A property type is in the olm.* namespace, but OLM does not define it.",
        "Use one of OLM's property types, or a type outside the olm.* namespace.";

    // Building catalogs from bundles (catalog from-bundles, render, bundle generate).
    /// A bundle format that cannot be rendered.
    UnsupportedBundleFormat = "unsupported-bundle-format", Error,
        "Only registry+v1 bundles can be rendered.",
        "Render registry+v1 bundles only; convert the bundle, or leave it out.";
    /// A manifest without a kind, left out of a rendered bundle.
    ObjectWithoutKind = "object-without-kind", Warning,
        "A manifest has no kind; opm cannot decode it, so it is left out of the rendered bundle.",
        "Give the object its kind, or remove the file.";
    /// A bundle directory skipped by `catalog from-bundles`.
    BundleSkipped = "bundle-skipped", Warning,
        "A bundle directory was skipped while building a catalog.",
        "Fix the problem given, or remove the directory from the tree.";
    /// A bundle found twice in a tree.
    DuplicateBundleDirectory = "duplicate-bundle-directory", Error,
        "Two bundle directories in the tree hold the same bundle.",
        "Remove one of the copies.";
    /// Bundles of a package disagree on ci.yaml's updateGraph.
    ConflictingUpdateGraph = "conflicting-update-graph", Warning,
        "Bundles of a package find different ci.yaml updateGraph values.",
        "Keep one ci.yaml per package.";
    /// The default channel chosen by `catalog from-bundles`.
    DefaultChannelChosen = "default-channel-chosen", Warning,
        "The package's bundles name no existing default channel, or disagree on it; one was chosen.",
        "Make every bundle's default channel annotation name the same existing channel.";
    /// A bundle in no channel while building a catalog.
    BundleInNoChannel = "bundle-in-no-channel", Warning,
        "A bundle names no channel.",
        "Set the bundle's channels annotation.";
    // Catalogs read at a Git revision.
    /// A symbolic link or submodule in a Git tree read as a catalog.
    GitEntrySkipped = "git-entry-skipped", Warning,
        "A symbolic link or submodule in the Git tree is not read.",
        "Commit the files themselves into the catalog directory.";
    /// An `.indexignore` file in a Git tree that cannot be read as patterns.
    InvalidIgnoreFile = "invalid-ignore-file", Error,
        "An .indexignore file holds a pattern that cannot be read.",
        "Fix the pattern (gitignore syntax) in the .indexignore file.";
    // Images read from disk.
    /// An entry of an image layer that is not read (a device, a link).
    ImageEntrySkipped = "image-entry-skipped", Warning,
        "An entry of the image (a device file, a named pipe, a symbolic link) is not read.",
        "Put the files themselves into the catalog or bundle directory of the image.";
    /// A bundle image's label disagrees with its annotations.yaml.
    ImageLabelMismatch = "image-label-mismatch", Error,
        "A bundle image's label disagrees with the same key in metadata/annotations.yaml.",
        "Build the image with the labels of metadata/annotations.yaml (operator-sdk and opm generate both).";
    // Rendering templates.
    /// A semver template's package is written without its icon.
    TemplateIconMissing = "template-icon-missing", Warning,
        "The rendered package has no icon: the bundle source carries olm.csv.metadata, which holds none.",
        "Add a catalog with olm.bundle.object bundles (or the bundle directory) to --bundles-from.";
    /// A template's bundle image is found in two sources with different blobs.
    TemplateImageConflict = "template-image-conflict", Warning,
        "A bundle image is in two --bundles-from sources with different contents; the first is used.",
        "Remove the stale source, or order --bundles-from with the right one first.";
    // Catalog diffs (`olmsat diff`): what a change does to the users of a package.
    /// R0: NEW fails opm validation.
    NewInvalid = "new-invalid", Error,
        "NEW fails opm's validation.",
        "Fix the validation errors of NEW (olmsat validate NEW).";
    /// R1: an entry that reached the head in OLD no longer does in NEW.
    Stranded = "stranded", Error,
        "An entry that reached the channel head in OLD no longer does in NEW.",
        "Add a replaces, skips or skipRange edge from the entry towards the head.";
    /// R2: an entry removed from a channel with nothing upgrading from it.
    RemovedUncovered = "removed-uncovered", Error,
        "An entry was removed from a channel and nothing in NEW upgrades from it.",
        "Keep the entry, or make a remaining entry skip or skipRange-match it so installed users can upgrade.";
    /// R2 (info): an entry removed from a channel that still has an edge from it.
    RemovedCovered = "removed-covered", Info,
        "An entry was removed from a channel; an edge in NEW still upgrades from it.",
        "Nothing to fix unless the change was unintended.";
    /// R3: a channel with entries is gone.
    ChannelRemoved = "channel-removed", Error,
        "A channel that had entries is gone, and users on some entry have no path to a head in any remaining channel.",
        "Restore it, or make a remaining channel upgrade the entries named (replaces, skips or a skipRange), or deprecate it first (olm.deprecations) so subscribers are warned.";
    /// R3 (warning): a channel is gone, but every entry of it still upgrades in
    /// another channel (its subscriptions must be edited; nobody is stranded).
    ChannelRetired = "channel-retired", Warning,
        "A channel that had entries is gone, but users on each of its entries can switch to another channel that upgrades them.",
        "Tell subscribers which channel to switch to (olm.deprecations on the channel before removing it).";
    /// R3: the package is gone.
    PackageRemoved = "package-removed", Error,
        "A package is gone.",
        "Restore it, or deprecate it first (olm.deprecations) so subscribers are warned.";
    /// R4: an entry of NEW with no edge to any entry and not the head.
    NewDeadEnd = "new-dead-end", Error,
        "An entry of NEW has no edge to any entry and is not the head.",
        "Give the entry an edge to a newer entry, or remove it.";
    /// R5: the head's version went down (an error when OLM v0 moves the old
    /// head's users down to it).
    HeadRegression = "head-regression", Warning,
        "The channel head's version went down; an error when the old head has an edge to the new head, so OLM v0 downgrades its users.",
        "Check the head's version: new installs get the lower version, and when the new head replaces, skips or skipRange-covers the old one OLM v0 moves its users down to it.";
    /// R6: the default channel changed.
    DefaultChannelChanged = "default-channel-changed", Warning,
        "The package's default channel changed.",
        "Check that new subscriptions without a channel should get the new default.";
    /// R7: an edge was removed while its source still reaches the head.
    EdgeShrink = "edge-shrink", Info,
        "An edge was removed while its source still reaches the head.",
        "Nothing to fix unless the change was unintended.";
    /// R8: OLM v0's path from an entry reached the head in OLD and stops short in NEW.
    OlmStuck = "olm-stuck", Error,
        "OLM v0's path from an entry reached the head in OLD and stops short in NEW.",
        "Add a replaces, skips or skipRange edge from the entry towards the head.";
    /// R9: OLM v0 reaches the same head in more steps.
    PathLonger = "path-longer", Info,
        "OLM v0 reaches the same head from an entry in more steps.",
        "Nothing to fix unless the change was unintended.";
    /// R10: a bundle of another channel could switch into this one in OLD and
    /// cannot in NEW.
    SwitchLost = "switch-lost", Warning,
        "Users on a bundle of another channel could move to this channel by switching their subscription in OLD; in NEW no entry upgrades them.",
        "Keep an edge into the channel from the bundle (replaces, skips, or a skipRange containing its version).";
    /// A bundle kept its name but changed image, version or properties.
    BundleChanged = "bundle-changed", Info,
        "A bundle kept its name but changed its image, version or properties.",
        "A published bundle should not change; publish a new version instead.";
}

impl Rule {
    /// Whether the rule is one of `olmsat diff`'s (R0–R10 and
    /// `bundle-changed`).
    pub fn is_diff(self) -> bool {
        matches!(
            self,
            Rule::NewInvalid
                | Rule::Stranded
                | Rule::RemovedUncovered
                | Rule::RemovedCovered
                | Rule::ChannelRemoved
                | Rule::ChannelRetired
                | Rule::PackageRemoved
                | Rule::NewDeadEnd
                | Rule::HeadRegression
                | Rule::DefaultChannelChanged
                | Rule::EdgeShrink
                | Rule::OlmStuck
                | Rule::PathLonger
                | Rule::SwitchLost
                | Rule::BundleChanged
        )
    }

    /// Whether a policy may allow this rule's findings when they are errors.
    /// A diff's findings judge what a change does to users, and a maintainer
    /// may accept that for a deliberate change (a package removed on
    /// purpose); the errors of validation are opm's, and a catalog that has
    /// them does not load, so they cannot be allowed (except `new-invalid`,
    /// which stays an error whatever the policy).
    pub fn allows_errors(self) -> bool {
        self.is_diff() && self != Rule::NewInvalid
    }

    /// The code of a diff rule, `R0` to `R10` (`bundle-changed`, a structural
    /// change reported as a finding, has none; other rules neither).
    pub fn code(self) -> Option<&'static str> {
        Some(match self {
            Rule::NewInvalid => "R0",
            Rule::Stranded => "R1",
            Rule::RemovedUncovered | Rule::RemovedCovered => "R2",
            Rule::ChannelRemoved | Rule::ChannelRetired | Rule::PackageRemoved => "R3",
            Rule::NewDeadEnd => "R4",
            Rule::HeadRegression => "R5",
            Rule::DefaultChannelChanged => "R6",
            Rule::EdgeShrink => "R7",
            Rule::OlmStuck => "R8",
            Rule::PathLonger => "R9",
            Rule::SwitchLost => "R10",
            _ => return None,
        })
    }

    /// The page documenting the rule: `docs/diff.md` for a diff's rules,
    /// `docs/validation.md` for the others.
    pub fn doc_page(self) -> &'static str {
        if self.is_diff() {
            "docs/diff.md"
        } else {
            "docs/validation.md"
        }
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

/// A rule name that is not the identifier of any rule.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown rule {name:?}{}", suggestion.map(|s| format!(" (did you mean {:?}?)", s.id())).unwrap_or_default())]
pub struct UnknownRule {
    /// The name given.
    pub name: String,
    /// The closest rule, when one is close.
    pub suggestion: Option<Rule>,
}

impl FromStr for Rule {
    type Err = UnknownRule;

    fn from_str(name: &str) -> Result<Rule, UnknownRule> {
        if let Some(r) = Rule::ALL.iter().find(|r| r.id() == name) {
            return Ok(*r);
        }
        let suggestion = Rule::ALL
            .iter()
            .map(|r| (crate::suggest::edit_distance(name, r.id()), *r))
            .filter(|(d, r)| *d <= 3.max(r.id().len() / 3))
            .min()
            .map(|(_, r)| r);
        Err(UnknownRule {
            name: name.to_owned(),
            suggestion,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifiers_are_unique_kebab_case_and_parse_back() {
        let mut seen = std::collections::BTreeSet::new();
        for r in Rule::ALL {
            assert!(seen.insert(r.id()), "{} twice", r.id());
            assert!(
                r.id()
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-'),
                "{}",
                r.id()
            );
            assert_eq!(r.id().parse::<Rule>(), Ok(*r));
            assert!(r.summary().ends_with('.') && r.help().ends_with('.'), "{r}");
        }
    }

    #[test]
    fn every_rule_is_documented() {
        for r in Rule::ALL {
            let path = format!("{}/../{}", env!("CARGO_MANIFEST_DIR"), r.doc_page());
            let doc = std::fs::read_to_string(&path).unwrap_or_default();
            assert!(
                doc.contains(&format!("<a id=\"{r}\"></a>`{r}`")),
                "{r} is not in {}",
                r.doc_page()
            );
        }
    }

    #[test]
    fn unknown_names_are_refused_with_a_suggestion() {
        let e = "multiple-head".parse::<Rule>().unwrap_err();
        assert_eq!(
            e.to_string(),
            "unknown rule \"multiple-head\" (did you mean \"multiple-heads\"?)"
        );
        let e = "zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz"
            .parse::<Rule>()
            .unwrap_err();
        assert_eq!(e.suggestion, None);
        assert_eq!(
            e.to_string(),
            "unknown rule \"zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz\""
        );
    }
}
