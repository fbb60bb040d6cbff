//! `olmsat completions` and `olmsat man`: the command line described for
//! shells (clap_complete) and for `man` (clap_mangen), from the same
//! definition clap parses with.

use std::io::Write;

use clap::CommandFactory;

use crate::args::{Cli, CompletionsArgs, Shell};
use crate::output::Exit;

/// Print the completion script for the shell asked for.
pub fn completions(args: &CompletionsArgs) -> super::Outcome {
    let shell = match args.shell {
        Shell::Bash => clap_complete::Shell::Bash,
        Shell::Zsh => clap_complete::Shell::Zsh,
        Shell::Fish => clap_complete::Shell::Fish,
        Shell::Powershell => clap_complete::Shell::PowerShell,
    };
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    clap_complete::generate(shell, &mut Cli::command(), "olmsat", &mut out);
    out.flush()?;
    Ok(Exit::Ok.into())
}

/// Print the manual page as roff.
pub fn man() -> super::Outcome {
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    clap_mangen::Man::new(Cli::command()).render(&mut out)?;
    out.flush()?;
    Ok(Exit::Ok.into())
}
