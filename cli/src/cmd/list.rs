//! `olmsat list`

use olmsat_catalog::align_columns as align;
use olmsat_catalog::list_bundles;
use olmsat_catalog::list_channels;
use olmsat_catalog::list_packages;
use serde::Serialize;

use crate::args::{ListArgs, ListWhat, ReportFormat};
use crate::output::{print_data, Exit};
use crate::process::Finished;

#[derive(Serialize)]
struct ChannelJson<'a> {
    package: &'a str,
    channel: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    head: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<&'a str>,
}

/// List packages, channels or bundles of the catalog.
pub fn run(args: &ListArgs, o: &olmsat_input::Options) -> super::Outcome {
    let (package, format) = (args.package.as_deref(), args.output);
    let catalog = match super::open_catalog(&args.path, None, o)? {
        Ok(catalog) => catalog,
        Err(exit) => return Ok(exit.into()),
    };
    let model = catalog.model();
    if let Some(p) = package {
        // An unknown package lists the catalog's closest names first.
        if let Err(e) = olmsat_graph::select_package(model, p) {
            errln!("olmsat: {e}");
            return Ok(Finished::new(Exit::Invalid).keeping(catalog));
        }
    }
    match args.what {
        ListWhat::Packages => {
            let rows = list_packages(model, package);
            if format != ReportFormat::Text {
                print_data(format, &rows)?;
            } else {
                let mut t = vec![vec![
                    "NAME".into(),
                    "DISPLAY NAME".into(),
                    "DEFAULT CHANNEL".into(),
                ]];
                t.extend(
                    rows.into_iter()
                        .map(|r| vec![r.name, r.display_name, r.default_channel]),
                );
                out!("{}", align(&t));
            }
        }
        ListWhat::Channels => {
            let rows = list_channels(model, package);
            if format != ReportFormat::Text {
                let js: Vec<ChannelJson<'_>> = rows
                    .iter()
                    .map(|r| ChannelJson {
                        package: &r.package,
                        channel: &r.channel,
                        head: r.head.as_deref().ok(),
                        error: r.head.as_ref().err().map(String::as_str),
                    })
                    .collect();
                print_data(format, &js)?;
            } else {
                let mut t = vec![vec!["PACKAGE".into(), "CHANNEL".into(), "HEAD".into()]];
                t.extend(rows.into_iter().map(|r| {
                    let head = r.head.unwrap_or_else(|e| format!("ERROR: {e}"));
                    vec![r.package, r.channel, head]
                }));
                out!("{}", align(&t));
            }
        }
        ListWhat::Bundles => {
            let rows = list_bundles(model, package);
            if format != ReportFormat::Text {
                print_data(format, &rows)?;
            } else {
                let mut t = vec![[
                    "PACKAGE",
                    "CHANNEL",
                    "BUNDLE",
                    "REPLACES",
                    "SKIPS",
                    "SKIP RANGE",
                    "IMAGE",
                ]
                .map(String::from)
                .to_vec()];
                t.extend(rows.into_iter().map(|r| {
                    vec![
                        r.package,
                        r.channel,
                        r.bundle,
                        r.replaces,
                        r.skips.join(","),
                        r.skip_range,
                        r.image,
                    ]
                }));
                out!("{}", align(&t));
            }
        }
    }
    Ok(Finished::new(Exit::Ok).keeping(catalog))
}
