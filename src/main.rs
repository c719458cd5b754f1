//! The `trawl` binary: parse arguments, run, map errors to exit codes.

use clap::Parser;

fn main() {
    let cli = trawl::cli::Cli::parse();
    let code = match trawl::cli::run(cli) {
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
            eprintln!("trawl: error: {e:#}");
            2
        }
    };
    std::process::exit(code);
}
