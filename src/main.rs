//! The `trawl` binary: parse arguments, run, map errors to exit codes.

use clap::Parser;

mod cli;
mod client;
mod cluster;
mod eval;
mod status;
mod templates;

fn main() {
    let cli = cli::Cli::parse();
    let code = match cli::run(cli) {
        Ok(code) => code,
        // A closed pipe (`trawl extract … | head`) is the reader's choice, not an error.
        Err(e)
            if e.chain().any(|c| {
                c.downcast_ref::<std::io::Error>()
                    .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
            }) =>
        {
            0
        }
        Err(e) => {
            eprintln!("trawl: error: {}", message(&e));
            // Inputs that could not be read or used: 1; usage and setup: 2.
            let input = e.chain().any(|c| {
                c.is::<cli::FailedInputs>()
                    || c.is::<trawl_extract::InputError>()
                    || c.is::<trawl_extract::ExtractError>()
                    || c.is::<trawl_extract::TemplateError>()
            });
            if input {
                1
            } else {
                2
            }
        }
    };
    std::process::exit(code);
}

/// The error and its causes on one line, each said once: library errors
/// already name their cause in their own message.
fn message(e: &anyhow::Error) -> String {
    let mut msg = e.to_string();
    for cause in e.chain().skip(1) {
        let text = cause.to_string();
        if !msg.contains(&text) {
            msg.push_str(": ");
            msg.push_str(&text);
        }
    }
    msg
}
