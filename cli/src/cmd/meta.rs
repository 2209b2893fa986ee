//! `meshspec completions SHELL` and `meshspec man [COMMAND]`: generated from the clap
//! definitions, so they list exactly the commands and options there are.

use crate::args::Cli;
use crate::fail::Fail;
use crate::term;
use clap::CommandFactory;
use std::process::ExitCode;

pub fn completions(shell: clap_complete::Shell) -> Result<ExitCode, Fail> {
    let mut cmd = Cli::command();
    let mut buf = vec![];
    clap_complete::generate(shell, &mut cmd, "meshspec", &mut buf);
    term::out_bytes(&buf)?;
    Ok(ExitCode::SUCCESS)
}

pub fn man(command: Option<&str>) -> Result<ExitCode, Fail> {
    let mut root = Cli::command();
    root.build();
    let page = match command {
        None => root,
        Some(name) => match root.find_subcommand(name) {
            Some(sub) => sub.clone().name(format!("meshspec-{name}")),
            None => {
                return Err(Fail::Usage(vec![format!(
                    "no command `{}`; the commands are {}",
                    crate::escape::text(name),
                    root.get_subcommands()
                        .map(|c| c.get_name())
                        .collect::<Vec<_>>()
                        .join(", ")
                )]))
            }
        },
    };
    let mut buf = vec![];
    clap_mangen::Man::new(page)
        .render(&mut buf)
        .expect("rendering into memory does not fail");
    term::out_bytes(&buf)?;
    Ok(ExitCode::SUCCESS)
}
