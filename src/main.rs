//! The `trawl` binary: parse arguments, run, map errors to exit codes.

use clap::Parser;

mod api;
mod cli;
mod client;
mod cluster;
mod eval;
mod process;
mod status;
mod terminal;

fn main() {
    quiet_store_panics();
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
            eprintln!("trawl: error: {}", terminal::error_message(&e));
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

/// A damaged database file can make sled panic; the store catches it at
/// its boundary and reports an error naming the store and the way out, so
/// the panic's own message (and backtrace) is not printed. Other panics
/// print as usual.
fn quiet_store_panics() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        // Store reads that are guarded run on the main thread; a panic in
        // a daemon's worker thread is printed whatever its origin.
        let guarded = std::thread::current().name() == Some("main")
            && info.location().is_some_and(|l| l.file().contains("/sled-"));
        if !guarded {
            default(info);
        }
    }));
}
